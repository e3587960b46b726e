import { Router, type RequestHandler } from 'express';
import type { AppContext } from '../context';
import { jsonBody } from '../middleware/body-parsing';
import { fileUpload } from '../middleware/file-upload';
import { requireApiKey } from '../middleware/authenticate';
import { reserveOutboundSlot } from '../middleware/outbound-slot';
import { outboundOf, scopeOf } from '../request-scope';
import { requestSignal } from '../request-signal';
import { assertAudioConfigured, downloadAudio, transcribeAudio, type AudioFile } from '@research/runs';
import { validationError } from '@research/core';
import { parseBody } from '../validation';
import { audioUploadFieldsSchema, audioUrlBodySchema, type TranscriptionResponse } from './audio.schemas';

/**
 * `POST /audio/transcribe`: a multipart upload (`file`, optional `language`, `prompt`) held in memory up
 * to AUDIO_MAX_BYTES, or JSON `{audio_url}` fetched through the crawler's guard.
 */
export function createAudioRouter(ctx: AppContext): Router {
  const { tools } = ctx;
  const router = Router();
  const maxBytes = ctx.config.audio.maxBytes;
  const upload = fileUpload({ maxBytes, noun: 'audio', fields: ['language', 'prompt'] });
  const json = jsonBody();
  const parseEither: RequestHandler = (req, res, next) => {
    if (!req.is('multipart/form-data')) return json(req, res, next);
    upload(req, res, next);
  };
  // Without a provider nothing is read: 503 before an upload is buffered.
  const configured: RequestHandler = (_req, _res, next) => {
    assertAudioConfigured(ctx.config);
    next();
  };
  // The key is checked for this path only, so an unknown path stays a 404 without one (as elsewhere). The
  // caller's outbound slot is taken before the body is read: at its limit, a caller's upload is never buffered.
  router.use('/transcribe', requireApiKey(ctx), configured, reserveOutboundSlot(tools), parseEither);
  router.post('/transcribe', async (req, res) => {
    const signal = requestSignal(res);
    const scope = scopeOf(res);
    const outbound = outboundOf(res);
    let file: AudioFile;
    let options: { language?: string; prompt?: string; field: string };
    if (req.is('multipart/form-data')) {
      const fields = parseBody(audioUploadFieldsSchema, { ...(req.body ?? {}) }, { required: false });
      if (!req.file) throw validationError('file', 'Required');
      if (req.file.size === 0) throw validationError('file', 'must not be empty');
      file = {
        body: req.file.buffer,
        filename: req.file.originalname || 'audio',
        mediaType: req.file.mimetype || 'application/octet-stream',
      };
      options = { ...fields, field: 'file' };
    } else {
      const input = parseBody(audioUrlBodySchema, req.body, { required: true });
      file = await downloadAudio({ tools, config: ctx.config, outbound, url: input.audio_url, signal });
      options = { language: input.language, prompt: input.prompt, field: 'audio_url' };
    }
    const result = await transcribeAudio({ config: ctx.config, scope, outbound, file, options, signal });
    res.json(result satisfies TranscriptionResponse);
  });
  return router;
}
