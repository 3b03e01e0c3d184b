/** The recognition core: OCR pool, PDF pages, classification and extraction of one attachment. */

export { TimeoutError } from '@docflow/timing';
export {
  type ClassifiedPart,
  type ClassifyOptions,
  classifyPage,
  classifyPages,
  DEFAULT_MIN_SCORE,
  type FormScore,
  type PageText,
  scorePage,
} from './classify';
export { RecognitionEnv } from './config';
export { extractValues } from './extract';
export { declaredFileKind, type FileKind, sniffFileKind } from './file-kind';
export { encodeGreyPng, rgbaToGrey } from './grey-png';
export { declaredImageSize, type ImageSize, MAX_IMAGE_PIXELS } from './image-header';
export {
  DEFAULT_LANGUAGES,
  INSTALLED_LANGUAGES,
  langPathFor,
  type OcrLanguage,
  resolveIdpLangs,
} from './languages';
export {
  createOcrPool,
  OcrImageError,
  OcrOverloadedError,
  type OcrPool,
  type OcrPoolOptions,
  type OcrPoolStats,
  type OcrResult,
  OcrUnavailableError,
} from './ocr-pool';
export { MAX_PAGE_TEXT } from './patterns';
export {
  hasTextLayer,
  MAX_RENDER_PIXELS,
  MIN_RENDER_DPI,
  OCR_DPI,
  type PdfFile,
  PdfTooLargeError,
  PdfUnreadableError,
} from './pdf';
export { openPdfInWorker, type PdfThreadOptions } from './pdf-thread';
export type { RecoFormDef } from './reco-form';
export {
  type Attachment,
  type RecoFailure,
  type RecoFailureReason,
  type RecognizeFileOptions,
  type RecognizeFileResult,
  type RecoPart,
  type RecoSuccess,
  recoFailureProblem,
  recognizeFile,
} from './recognize-file';
export { createRecognitionService, type RecognitionService, type RecognitionServiceDeps } from './service';
/** Page generators for tests and benchmarks (no binary fixtures are committed). */
export {
  drawPage,
  drawPageEncoded,
  drawPagePng,
  type FixtureLine,
  type GreyPage,
  greyTiff,
  imagePdf,
  type PlacedText,
  placedTextPdf,
  textPdf,
} from './testing/fixtures';
export { deepPageTreePdf, hugePagePdf, imageBombPdf, pngBomb, softMaskBombPdf } from './testing/hostile';
