/** The OCR languages the project installs, and where their trained data lies on disk (never the network). */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { problems } from '@docflow/kit';

/** Language code → the npm package that ships its trained data. One entry per installed package. */
const LANGUAGE_PACKAGES = { eng: '@tesseract.js-data/eng' } as const;
/** The integer-quantised "best" model: same text and confidence as `4.0.0`, ~95 MiB less per worker (ocr.md). */
const MODEL_FOLDER = '4.0.0_best_int';

export type OcrLanguage = keyof typeof LANGUAGE_PACKAGES;
export const INSTALLED_LANGUAGES = Object.keys(LANGUAGE_PACKAGES) as OcrLanguage[];
export const DEFAULT_LANGUAGES: OcrLanguage[] = ['eng'];

const require = createRequire(import.meta.url);

const isInstalled = (code: string): code is OcrLanguage => Object.hasOwn(LANGUAGE_PACKAGES, code);

/**
 * Parses `idpLangs` (`eng`, `eng+deu`, ...) into installed languages, in order and without repeats.
 * Throws a 400 problem naming every language that is not installed and listing the installed ones.
 *
 * @example resolveIdpLangs('eng') // ['eng']
 */
export function resolveIdpLangs(idpLangs: string | undefined): OcrLanguage[] {
  if (idpLangs === undefined || idpLangs.trim() === '') return [...DEFAULT_LANGUAGES];
  const codes = [...new Set(idpLangs.split('+').map((c) => c.trim()))];
  const missing = codes.filter((c) => !isInstalled(c));
  if (missing.length > 0)
    throw problems.badRequest(
      `OCR language(s) not installed: ${missing.join(', ')}; installed: ${INSTALLED_LANGUAGES.join(', ')}`,
      [
        {
          pointer: 'query.idpLangs',
          message: `use languages among ${INSTALLED_LANGUAGES.join(', ')}, joined by +`,
        },
      ],
    );
  return codes as OcrLanguage[];
}

/**
 * The folder tesseract.js reads `<code>.traineddata.gz` from. tesseract.js takes one folder for all the
 * languages of a worker, so every language of one worker must come from the same folder.
 */
export function langPathFor(languages: readonly OcrLanguage[]): string {
  const folders = [...new Set(languages.map((code) => languageFolder(code)))];
  if (folders.length !== 1)
    throw new RangeError(`languages ${languages.join('+')} do not share one trained-data folder`);
  return folders[0]!;
}

function languageFolder(code: OcrLanguage): string {
  return join(dirname(require.resolve(`${LANGUAGE_PACKAGES[code]}/package.json`)), MODEL_FOLDER);
}
