/** The OCR languages the project installs, and where their trained data lies on disk (never the network). */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { OCR_LANGUAGES, type OcrLanguage, ocrLanguagesNotInstalled } from '@docflow/contracts';
import { problems } from '@docflow/kit/http';

/** Language code → the npm package that ships its trained data: one entry for each of the contract's languages. */
const LANGUAGE_PACKAGES: Record<OcrLanguage, string> = { eng: '@tesseract.js-data/eng' };
/** The integer-quantised "best" model: same text and confidence as `4.0.0`, ~95 MiB less per worker (ocr.md). */
const MODEL_FOLDER = '4.0.0_best_int';

export type { OcrLanguage };
export const INSTALLED_LANGUAGES: readonly OcrLanguage[] = OCR_LANGUAGES;
export const DEFAULT_LANGUAGES: OcrLanguage[] = ['eng'];

const require = createRequire(import.meta.url);

/**
 * Parses `idpLangs` (`eng`, `eng+deu`, ...) into installed languages, in order and without repeats.
 * Throws a 400 problem naming every language that is not installed and listing the installed ones.
 *
 * @example resolveIdpLangs('eng') // ['eng']
 */
export function resolveIdpLangs(idpLangs: string | undefined): OcrLanguage[] {
  if (idpLangs === undefined || idpLangs.trim() === '') return [...DEFAULT_LANGUAGES];
  const codes = [...new Set(idpLangs.split('+').map((c) => c.trim()))];
  const notInstalled = ocrLanguagesNotInstalled(idpLangs);
  if (notInstalled)
    throw problems.badRequest(notInstalled, [
      {
        pointer: 'query.idpLangs',
        message: `use languages among ${INSTALLED_LANGUAGES.join(', ')}, joined by +`,
      },
    ]);
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
