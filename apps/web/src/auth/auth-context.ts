import { createContext, useContext } from 'react';
import type { User } from './user';

export type AuthStatus = 'loading' | 'authenticated' | 'anonymous';

export interface AuthContextValue {
  status: AuthStatus;
  /** True until the stored session has been read (SPEC §4 Session). */
  loading: boolean;
  isAuthenticated: boolean;
  isAdmin: boolean;
  user: User | null;
  token: string | null;
  /** The LIFX token stored for the signed-in user (`lifx_token_<email>`), looked up on restore. */
  lifxToken: string | null;
  /** Stores the token and user of a successful login or sign-up. */
  login: (token: string, user: User) => void;
  /** Forgets the session on this device and revokes it on the server (best effort). */
  logout: () => void;
  /** Reads the user again from the server; throws 'Failed to refresh user data' (SPEC §8). */
  refreshUser: () => Promise<User>;
  /** Stores a newer copy of the signed-in user (after a licence or payment). */
  updateUser: (user: User) => void;
}

export const AuthContext = createContext<AuthContextValue | null>(null);

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside <AuthProvider>');
  return value;
}
