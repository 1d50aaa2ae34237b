import { useEffect, useState } from 'react';
import { fetchAppConfig } from '../api/app-config';
import { FALLBACK_SUPPORT_EMAIL } from './support';

let request: Promise<string> | null = null;

function fetchSupportEmail(): Promise<string> {
  request ??= fetchAppConfig()
    .then(({ supportEmail }) => (supportEmail.includes('@') ? supportEmail : FALLBACK_SUPPORT_EMAIL))
    .catch(() => FALLBACK_SUPPORT_EMAIL);
  return request;
}

/** The support address from the server's public config (GET /api/config), else the fallback. */
export function useSupportEmail(): string {
  const [email, setEmail] = useState(FALLBACK_SUPPORT_EMAIL);
  useEffect(() => {
    let live = true;
    void fetchSupportEmail().then((value) => live && setEmail(value));
    return () => {
      live = false;
    };
  }, []);
  return email;
}
