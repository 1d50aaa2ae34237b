import { render, screen } from '@testing-library/react';
import { describe, expect, test } from 'vitest';
import { DesktopDownloads } from './DesktopDownloads';

const linkTargets = () =>
  screen.getAllByRole('link').map((link) => [link.textContent, link.getAttribute('href')]);

describe('the desktop downloads offered for the visitor’s system', () => {
  test('Windows: the installer only', () => {
    render(
      <ul>
        <DesktopDownloads variant="footer" system="windows" />
      </ul>,
    );
    expect(linkTargets()).toEqual([['Download for Windows', '/api/downloads/flaglight-setup']]);
    expect(screen.queryByText(/chmod/)).not.toBeInTheDocument();
  });

  test('Linux: the Linux executable first, with the chmod hint; the installer still on offer', () => {
    render(
      <ul>
        <DesktopDownloads variant="footer" system="linux" />
      </ul>,
    );
    expect(linkTargets()).toEqual([
      ['Download for Linux', '/api/downloads/flaglight-linux'],
      ['Download for Windows', '/api/downloads/flaglight-setup'],
    ]);
    expect(screen.getByText('then chmod +x and run it')).toBeInTheDocument();
    expect(screen.queryByText('macOS: coming later')).not.toBeInTheDocument();
  });

  test('macOS and the rest: both builds, the Raspberry Pi one, and an honest word about macOS', () => {
    render(<DesktopDownloads variant="panel" system="other" />);
    expect(linkTargets()).toEqual([
      ['Download for Windows', '/api/downloads/flaglight-setup'],
      ['Download for Linux', '/api/downloads/flaglight-linux'],
      ['Download for Raspberry Pi', '/api/downloads/flaglight-linux-arm64'],
    ]);
    expect(screen.getByText('macOS: coming later')).toBeInTheDocument();
  });

  test('the Help panel makes the fitting build the primary button', () => {
    render(<DesktopDownloads variant="panel" system="linux" />);
    expect(screen.getByRole('link', { name: 'Download for Linux' }).className).toContain('bg-accent');
    expect(screen.getByRole('link', { name: 'Download for Windows' }).className).not.toContain('bg-accent');
    expect(screen.getByText('Linux (x64): then chmod +x and run it.')).toBeInTheDocument();
  });
});
