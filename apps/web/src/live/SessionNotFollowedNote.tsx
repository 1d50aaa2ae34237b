import { Link } from 'react-router';
import { useAuth } from '../auth/auth-context';
import { useLocalSettings } from '../settings/local-settings';
import { LOOKS_SECTION_PATH } from '../settings/settings-paths';
import { describeUnfollowedSession } from './followed-session';
import type { LiveConnectionState } from './live-connection-state';

/**
 * One plain line while the followed session is of a kind the fan's lights do not follow: the flags
 * still show here, the lights stay as they are, and where to change it.
 */
export function SessionNotFollowedNote({ state }: { state: LiveConnectionState }) {
  const { user } = useAuth();
  const [settings] = useLocalSettings(user?.email);
  if (state.status === 'disconnected') return null;
  const kind = describeUnfollowedSession(state.target, settings.lightFollow);
  if (!kind) return null;
  return (
    <p data-testid="session-not-followed" className="text-ink-300">
      Your lights do not follow {kind}: the flags show here, the lights stay as they are. Change it in{' '}
      <Link to={LOOKS_SECTION_PATH} className="font-semibold text-accent underline">
        Settings → Flags &amp; effects
      </Link>
      .
    </p>
  );
}
