/** A recognised page's image (rendered by the server) with the box of the value in focus drawn over it. */
import { useEffect, useState } from 'preact/hooks';
import { blobUrl, enc, get } from './api';
import type { Box, PageLayout } from './model';
import { ErrorBox } from './ui';

const pagePath = (docId: string, fileId: string, pageIdx: number) =>
  `/api/v2/docForm/${enc(docId)}/file/${enc(fileId)}/page/${pageIdx}`;

/** The page's layout (undefined while loading, or when none was kept). */
export function usePageLayout(docId: string, fileId: string, pageIdx: number): PageLayout | undefined {
  const [layout, setLayout] = useState<PageLayout>();
  useEffect(() => {
    let current = true;
    setLayout(undefined);
    get<PageLayout>(`${pagePath(docId, fileId, pageIdx)}/layout`).then(
      (l) => current && setLayout(l),
      // A file recognised before layouts were kept: the image is still shown, without highlights.
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [docId, fileId, pageIdx]);
  return layout;
}

export function PageView({
  docId,
  fileId,
  pageIdx,
  highlight,
}: {
  docId: string;
  fileId: string;
  pageIdx: number;
  highlight?: Box;
}) {
  const [src, setSrc] = useState<string>();
  const [error, setError] = useState<unknown>();
  useEffect(() => {
    let url: string | undefined;
    let current = true;
    setSrc(undefined);
    setError(undefined);
    blobUrl(`${pagePath(docId, fileId, pageIdx)}/image`).then(
      (u) => {
        url = u;
        if (current) setSrc(u);
        else URL.revokeObjectURL(u);
      },
      (err: unknown) => current && setError(err),
    );
    return () => {
      current = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [docId, fileId, pageIdx]);
  const [left, top, right, bottom] = highlight ?? [0, 0, 0, 0];
  return (
    <figure class="page-view">
      <div class="page-frame">
        {src ? (
          <img src={src} alt={`Page ${pageIdx + 1} of the attachment`} />
        ) : (
          <p class="muted">Loading the page…</p>
        )}
        {src && highlight ? (
          <div
            class="page-highlight"
            role="img"
            aria-label="Where the value in focus was read"
            style={{
              left: `${left * 100}%`,
              top: `${top * 100}%`,
              width: `${(right - left) * 100}%`,
              height: `${(bottom - top) * 100}%`,
            }}
          />
        ) : null}
      </div>
      <figcaption class="muted">Page {pageIdx + 1}</figcaption>
      <ErrorBox error={error} />
    </figure>
  );
}
