/** A button that copies a text (a new API key, a token) to the clipboard and says so. */
import { useState } from 'preact/hooks';

export function CopyButton({ text, label }: { text: string; label: string }) {
  const [said, setSaid] = useState('');
  // No clipboard API outside a secure context (plain http to a non-local host).
  const copy = () =>
    (navigator.clipboard ? navigator.clipboard.writeText(text) : Promise.reject()).then(
      () => setSaid('Copied.'),
      () => setSaid('Copying was refused by the browser: select the text and copy it.'),
    );
  return (
    <span class="copy">
      <button type="button" class="secondary" onClick={copy}>
        {label}
      </button>
      <span role="status">{said}</span>
    </span>
  );
}
