import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// In development the server runs on :3000 (npm run dev); Vite forwards every server path to it.
const SERVER_ORIGIN = 'http://localhost:3000';
const PROXIED_PATHS = ['/api', '/auth', '/admin', '/hue', '/sims'];

export default defineConfig({
  plugins: [react(), tailwindcss()],
  build: {
    outDir: 'dist',
    // The server gives /assets/* long-cache headers: every file there carries a content hash.
    assetsDir: 'assets',
    emptyOutDir: true,
    target: 'es2022',
  },
  server: {
    port: 5173,
    strictPort: true,
    proxy: Object.fromEntries(PROXIED_PATHS.map((path) => [path, { target: SERVER_ORIGIN }])),
  },
});
