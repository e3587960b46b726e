import { z } from 'zod';
import { boundedText } from '../validation';

/** POST /audio/transcribe as JSON: a linked audio file. */
export const audioUrlBodySchema = z
  .object({
    audio_url: boundedText(1, 2048).meta({ description: 'An http(s) URL of an audio file.' }),
    language: boundedText(1, 64).optional().meta({ description: 'Language spoken (ISO 639-1), if known.' }),
    prompt: boundedText(1, 1000).optional().meta({ description: 'Words the transcription should know.' }),
  })
  .meta({ id: 'TranscribeUrlRequest', example: { audio_url: 'https://example.org/interview.mp3', language: 'de' } });
export type AudioUrlBody = z.output<typeof audioUrlBodySchema>;

/** POST /audio/transcribe as multipart/form-data: `file` plus optional text fields. */
export const audioUploadFieldsSchema = z.object({
  language: boundedText(1, 64).optional(),
  prompt: boundedText(1, 1000).optional(),
});

export const audioUploadBodySchema = z
  .object({
    file: z.string().meta({ format: 'binary', description: 'The audio file (at most AUDIO_MAX_BYTES).' }),
    language: z.string().optional(),
    prompt: z.string().optional(),
  })
  .meta({ id: 'TranscribeUploadRequest' });

export const transcriptionResponseSchema = z
  .object({
    text: z.string(),
    language: z.string().nullable(),
    duration_seconds: z.number().nullable(),
    model: z.string(),
    bytes: z.number().int(),
  })
  .meta({
    id: 'TranscriptionResponse',
    example: {
      text: 'Guten Tag, heute sprechen wir über Homeoffice.',
      language: 'german',
      duration_seconds: 4.2,
      model: 'whisper-1',
      bytes: 67244,
    },
  });
export type TranscriptionResponse = z.infer<typeof transcriptionResponseSchema>;
