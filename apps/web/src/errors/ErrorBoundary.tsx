import { Component, type ReactNode } from 'react';
import { ErrorFallback } from './ErrorFallback';

interface ErrorBoundaryProps {
  children: ReactNode;
  /** Leaves for the home screen; the navigation changes `resetKey`, which clears the error. */
  onGoHome: () => void;
  /** Changes on every navigation (the location's key); a new value clears a caught error. */
  resetKey?: string;
  /** Whole-page reload; replaceable in tests. */
  reload?: () => void;
}

interface ErrorBoundaryState {
  error: unknown;
  resetKey: string | undefined;
}

// A lazily loaded screen whose file failed to download (offline, or replaced by a deploy)
// stays failed inside React.lazy's cache, so only a fresh page load can recover it.
function isChunkLoadError(error: unknown): boolean {
  return (
    error instanceof Error &&
    /dynamically imported module|Importing a module script failed|error loading dynamically/i.test(
      error.message,
    )
  );
}

export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<ErrorBoundaryState> {
    return { error: error ?? new Error('Unknown error') };
  }

  // Cleared in the same render as the new screen: clearing it after the commit would let
  // the broken screen render (and throw) once more first.
  static getDerivedStateFromProps(
    props: ErrorBoundaryProps,
    state: ErrorBoundaryState,
  ): Partial<ErrorBoundaryState> | null {
    if (props.resetKey === state.resetKey) return null;
    return { resetKey: props.resetKey, error: null };
  }

  private readonly tryAgain = () => {
    if (isChunkLoadError(this.state.error)) {
      (this.props.reload ?? (() => window.location.reload()))();
      return;
    }
    this.setState({ error: null });
  };

  override render(): ReactNode {
    if (this.state.error !== null) {
      return <ErrorFallback onTryAgain={this.tryAgain} onGoHome={this.props.onGoHome} />;
    }
    return this.props.children;
  }
}
