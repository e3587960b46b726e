import { z } from 'zod';
import { AppError, type AppConfig } from '@research/core';
import { isCrawlError } from '@research/crawler';
import type { RequestScope } from './scope';
import { crawlRefusal } from './crawler.service';
import type { OutboundLease, ResearchTools } from './research-tools';

export const AUDIO_NOT_CONFIGURED =
  'Audio transcription is not configured on this service (set AUDIO_MODEL, and AUDIO_BASE_URL or LLM_BASE_URL).';

/** 503 when no audio provider is configured (checked before an upload is read). */
export function assertAudioConfigured(config: AppConfig): void {
  if (!config.audio.baseUrl || !config.audio.model) throw new AppError('unavailable', AUDIO_NOT_CONFIGURED);
}

export interface AudioFile {
  body: Buffer;
  filename: string;
  mediaType: string;
}

export interface TranscriptionResult {
  text: string;
  language: string | null;
  duration_seconds: number | null;
  model: string;
  bytes: number;
}

/** The part of an OpenAI-compatible `verbose_json` transcription the service reads. */
const transcriptionSchema = z.object({
  text: z.string(),
  language: z.string().nullable().optional(),
  duration: z.number().nullable().optional(),
});

/**
 * The duration of a PCM WAV file from its header (data chunk size / byte rate), or null when the file is
 * not a WAV the header describes. Lets the service refuse a long recording before uploading it.
 */
export function wavDurationSeconds(body: Buffer): number | null {
  if (body.length < 12 || body.toString('latin1', 0, 4) !== 'RIFF' || body.toString('latin1', 8, 12) !== 'WAVE')
    return null;
  let byteRate = 0;
  let offset = 12;
  while (offset + 8 <= body.length) {
    const id = body.toString('latin1', offset, offset + 4);
    const size = body.readUInt32LE(offset + 4);
    if (id === 'fmt ' && offset + 20 <= body.length) byteRate = body.readUInt32LE(offset + 16);
    if (id === 'data') return byteRate > 0 ? size / byteRate : null;
    offset += 8 + size + (size % 2);
  }
  return null;
}

function tooLong(field: string, max: number): AppError {
  return new AppError('validation', `${field}: the audio is longer than ${max} seconds`);
}

/** What each audio call of a request needs: the service's configuration, the caller's outbound slot and signal. */
interface AudioCall {
  config: AppConfig;
  outbound: OutboundLease;
  signal: AbortSignal;
}

/** Reads `audio_url` through the crawler's guard (audio types only, within AUDIO_MAX_BYTES), on the caller's slot. */
export async function downloadAudio(request: AudioCall & { tools: ResearchTools; url: string }): Promise<AudioFile> {
  const { tools, config, outbound, url, signal } = request;
  const maxBytes = config.audio.maxBytes;
  try {
    const media = await outbound.run(() => tools.crawler().fetchMedia(url, { kind: 'audio', maxBytes, signal }));
    const name = new URL(media.url).pathname.split('/').pop() || 'audio';
    return { body: media.body, filename: name, mediaType: media.mediaType };
  } catch (error) {
    if (!isCrawlError(error)) throw error;
    throw crawlRefusal(error, 'audio_url', `the audio is larger than ${maxBytes} bytes`);
  }
}

/**
 * Transcribes one audio file with the OpenAI-compatible `POST {AUDIO_BASE_URL}/audio/transcriptions`
 * (multipart: file, model, response_format=verbose_json, language). The duration limit is enforced from
 * the WAV header before the upload, and from the duration the provider reports for other formats.
 * The provider call runs on the caller's outbound slot.
 */
export async function transcribeAudio(
  request: AudioCall & {
    scope: RequestScope;
    file: AudioFile;
    /** The caller's language and prompt, and the request field the audio came in (named in errors). */
    options: { language?: string; prompt?: string; field: string };
  },
): Promise<TranscriptionResult> {
  const { config, scope, outbound, file, options, signal } = request;
  assertAudioConfigured(config);
  const { apiKey, maxDurationSeconds } = config.audio;
  const baseUrl = config.audio.baseUrl!;
  const model = config.audio.model!;
  const headerDuration = wavDurationSeconds(file.body);
  if (headerDuration !== null && headerDuration > maxDurationSeconds) throw tooLong(options.field, maxDurationSeconds);

  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(file.body)], { type: file.mediaType }), file.filename);
  form.append('model', model);
  form.append('response_format', 'verbose_json');
  if (options.language) form.append('language', options.language);
  if (options.prompt) form.append('prompt', options.prompt);

  const answer = await outbound.run(async () => {
    let response: Response;
    try {
      response = await fetch(`${baseUrl}/audio/transcriptions`, {
        method: 'POST',
        body: form,
        headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
        signal: AbortSignal.any([signal, AbortSignal.timeout(config.llm.timeoutMs)]),
      });
    } catch (error) {
      if (signal.aborted) throw error;
      scope.logger.warn('audio provider unreachable', { error: (error as Error).name });
      throw new AppError('unavailable', 'The audio provider could not be reached.');
    }
    const text = await response.text();
    if (!response.ok) {
      scope.logger.warn('audio provider refused the transcription', { status: response.status });
      throw new AppError('unavailable', `The audio provider answered HTTP ${response.status}.`);
    }
    let parsed;
    try {
      parsed = transcriptionSchema.safeParse(JSON.parse(text));
    } catch {
      parsed = undefined;
    }
    if (!parsed?.success) throw new AppError('unavailable', 'The audio provider gave no usable transcription.');
    return parsed.data;
  });
  const duration = answer.duration ?? headerDuration;
  if (duration !== null && duration > maxDurationSeconds) throw tooLong(options.field, maxDurationSeconds);
  return {
    text: answer.text.trim(),
    language: answer.language ?? options.language ?? null,
    duration_seconds: duration === null ? null : Math.round(duration * 100) / 100,
    model,
    bytes: file.body.length,
  };
}
