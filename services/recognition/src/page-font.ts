/** A font for drawing pages that exists on every machine: Liberation Sans, shipped inside pdfjs-dist. */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { GlobalFonts } from '@napi-rs/canvas';

export const PAGE_FONT_FAMILY = 'DocflowPageSans';

let registered = false;

/** Registers the font with @napi-rs/canvas once; drawing with system fonts would fail where none exist. */
export function registerPageFont(): string {
  if (!registered) {
    const require = createRequire(import.meta.url);
    const fonts = join(dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts');
    GlobalFonts.registerFromPath(join(fonts, 'LiberationSans-Regular.ttf'), PAGE_FONT_FAMILY);
    registered = true;
  }
  return PAGE_FONT_FAMILY;
}
