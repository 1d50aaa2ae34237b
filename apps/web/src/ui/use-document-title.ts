import { useEffect } from 'react';

export const APP_NAME = 'Flaglight';

// The tab shows the current flag while a session is connected, whichever screen is open; otherwise
// the screen's own title. Both are kept here so neither overwrites the other.
let pageTitle = APP_NAME;
let flagTitleText: string | null = null;

function render() {
  document.title = flagTitleText ?? pageTitle;
}

/** Sets (or, with null, clears) the flag title that takes precedence over the screen's title. */
export function setFlagTitleText(text: string | null): void {
  flagTitleText = text;
  render();
}

/** The screen's own title while it is mounted; an unmounted screen leaves none behind. */
export function useDocumentTitle(title?: string): void {
  useEffect(() => {
    pageTitle = title ? `${title} · ${APP_NAME}` : APP_NAME;
    render();
    return () => {
      pageTitle = APP_NAME;
      render();
    };
  }, [title]);
}
