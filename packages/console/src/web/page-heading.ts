/**
 * Each page's `<h1>` names the tab (`<h1> · docflow`) as it renders and changes (a document's heading
 * arrives with the document), and after a navigation keyboard and screen-reader focus moves to it,
 * not left on `<body>` or the link that was followed.
 */
import { useEffect, useRef } from 'preact/hooks';

const APP = 'docflow';

export function usePageHeading(page: string): void {
  const seen = useRef(false);
  useEffect(() => {
    const root = document.getElementById('app');
    if (!root) return;
    // The first page of a visit keeps the browser's own start (the skip link first).
    let focusPending = seen.current;
    seen.current = true;
    const update = () => {
      const heading = root.querySelector('h1');
      const text = heading?.textContent?.trim();
      document.title = text ? `${text} · ${APP}` : APP;
      if (heading && focusPending) {
        focusPending = false;
        heading.tabIndex = -1;
        heading.focus();
      }
    };
    update();
    const observer = new MutationObserver(update);
    observer.observe(root, { subtree: true, childList: true, characterData: true });
    return () => observer.disconnect();
  }, [page]);
}
