/**
 * `FileRecognized` (recognition-<docId>) and `RecognitionRecorded` (docForm-<id>, the same with
 * `sourceId`): version 1 is with or without `text`; before 73fbdae recognition recorded no text.
 * Version 2 is written since versions are counted. Such an event stays without text (the schema keeps
 * `text` optional): the text is not in the event, and giving those documents searchable text is a
 * migration that re-reads the stored files, not something a pure function can do.
 */
import type { UpcastStep } from './step';

export const recognizedTextSteps: readonly UpcastStep[] = [(data) => data];
