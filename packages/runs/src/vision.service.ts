import { AppError, type AppConfig } from '@research/core';
import { isCrawlError } from '@research/crawler';
import { readImage, type ImageClaim } from '@research/pipeline';
import type { RequestScope } from './scope';
import { crawlRefusal } from './crawler.service';
import type { OutboundLease, ResearchTools } from './research-tools';

export const VISION_NOT_CONFIGURED =
  'Vision is not configured on this service (set VISION_MODEL, and VISION_BASE_URL or LLM_BASE_URL).';

/** 503 when no vision model is configured (checked before a large body is read). */
export function assertVisionConfigured(config: AppConfig): void {
  if (!config.vision.baseUrl || !config.vision.model) throw new AppError('unavailable', VISION_NOT_CONFIGURED);
}

export interface VisionInput {
  image_url?: string;
  image_base64?: string;
  prompt?: string | null;
  language: string;
}

export interface VisionResult {
  description: string;
  claims: ImageClaim[];
  model: string;
  media_type: string;
  bytes: number;
}

/** The image type from its first bytes (a declared type is never trusted). */
export function sniffImageType(body: Buffer): string | null {
  if (body.length >= 8 && body.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png';
  if (body.length >= 3 && body[0] === 0xff && body[1] === 0xd8 && body[2] === 0xff) return 'image/jpeg';
  if (body.length >= 6 && /^GIF8[79]a$/.test(body.subarray(0, 6).toString('latin1'))) return 'image/gif';
  if (
    body.length >= 12 &&
    body.subarray(0, 4).toString('latin1') === 'RIFF' &&
    body.subarray(8, 12).toString('latin1') === 'WEBP'
  )
    return 'image/webp';
  return null;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Decodes `image_base64` (optionally a data: URL) within the size limit. */
function decodeBase64(text: string, maxBytes: number): Buffer {
  const payload = text.replace(/^data:[\w/+.-]+;base64,/, '').replace(/\s+/g, '');
  if (payload.length === 0 || payload.length % 4 === 1 || !BASE64.test(payload)) {
    throw new AppError('validation', 'image_base64: must be base64-encoded image data');
  }
  // Checked before decoding, so an oversized payload is never held twice.
  if (Math.floor((payload.length * 3) / 4) - (payload.match(/=+$/)?.[0].length ?? 0) > maxBytes) {
    throw new AppError('payload_too_large', `image_base64: the image is larger than ${maxBytes} bytes`);
  }
  return Buffer.from(payload, 'base64');
}

/** One image analysis as the route hands it over. */
export interface ImageRequest {
  tools: ResearchTools;
  config: AppConfig;
  scope: RequestScope;
  outbound: OutboundLease;
  input: VisionInput;
  signal: AbortSignal;
}

async function loadImage(request: ImageRequest): Promise<{ body: Buffer; field: string }> {
  const { tools, config, outbound, input, signal } = request;
  const maxBytes = config.vision.maxImageBytes;
  if (input.image_base64 !== undefined)
    return { body: decodeBase64(input.image_base64, maxBytes), field: 'image_base64' };
  try {
    const media = await outbound.run(() =>
      tools.crawler().fetchMedia(input.image_url!, { kind: 'image', maxBytes, signal }),
    );
    return { body: media.body, field: 'image_url' };
  } catch (error) {
    if (!isCrawlError(error)) throw error;
    throw crawlRefusal(error, 'image_url', `the image is larger than ${maxBytes} bytes`);
  }
}

/**
 * Analyses one image with the vision model: a description and the claims it supports, each claim kept
 * only when its evidence span occurs in the description (the pipeline's grounding). The image comes as
 * base64 or from a URL fetched through the crawler's guard; either way it must be a PNG, JPEG, GIF or
 * WebP within VISION_MAX_IMAGE_BYTES. The download and the model call run on the caller's outbound slot.
 */
export async function analyzeImage(request: ImageRequest): Promise<VisionResult> {
  const { tools, outbound, input, signal } = request;
  const vision = tools.vision();
  if (!vision) throw new AppError('unavailable', VISION_NOT_CONFIGURED);
  const { body, field } = await loadImage(request);
  const mediaType = sniffImageType(body);
  if (!mediaType) throw new AppError('validation', `${field}: must be a PNG, JPEG, GIF or WebP image`);
  const reading = await outbound.run(() =>
    readImage(
      vision,
      { mediaType, base64: body.toString('base64') },
      { prompt: input.prompt ?? null, language: input.language, signal },
    ),
  );
  if (!reading.ok) {
    request.scope.logger.warn('vision provider failed', { kind: reading.failure, reason: reading.reason });
    throw new AppError('unavailable', `The vision provider gave no usable answer (${reading.failure}).`);
  }
  const { description, claims } = reading;
  return { description, claims, model: vision.model, media_type: mediaType, bytes: body.length };
}
