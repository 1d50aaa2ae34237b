import { ErrorFallback } from '../errors/ErrorFallback';

/** Last line of defence when the layout itself fails; a fresh load is the only safe retry. */
export function RouteErrorPage() {
  return (
    <ErrorFallback
      onTryAgain={() => window.location.reload()}
      onGoHome={() => {
        window.location.hash = '#/';
        window.location.reload();
      }}
    />
  );
}
