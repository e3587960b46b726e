import http from 'node:http';
import { listenOnLoopback } from '../support/loopback';

/** One transcription request the fake received (multipart fields and the file). */
export interface FakeAudioRequest {
  authorization: string | null;
  model: string | null;
  responseFormat: string | null;
  language: string | null;
  filename: string | null;
  fileType: string | null;
  fileBytes: number;
}

export interface FakeAudio {
  /** As AUDIO_BASE_URL: `${origin}/v1`. */
  readonly baseUrl: string;
  readonly requests: FakeAudioRequest[];
  /** Duration the fake reports (seconds). */
  duration: number;
  failWith: number | null;
  close(): Promise<void>;
}

export const FAKE_TRANSCRIPT = 'Guten Tag, heute sprechen wir über Homeoffice.';

/**
 * A loopback OpenAI-compatible transcription server: `POST /v1/audio/transcriptions` (multipart with
 * `file` and `model`), answering verbose_json `{text, language, duration}` as Whisper servers do.
 */
export async function startFakeAudio(): Promise<FakeAudio> {
  const requests: FakeAudioRequest[] = [];
  const state = { duration: 4.2, failWith: null as number | null };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        if (req.method !== 'POST' || req.url !== '/v1/audio/transcriptions') {
          res.writeHead(404).end();
          return;
        }
        // The platform's own multipart parser (undici), as a server framework would use one.
        const form = await new Request('http://fake/', {
          method: 'POST',
          headers: { 'content-type': String(req.headers['content-type']) },
          body: Buffer.concat(chunks),
        }).formData();
        const file = form.get('file');
        requests.push({
          authorization: req.headers.authorization ?? null,
          model: (form.get('model') as string | null) ?? null,
          responseFormat: (form.get('response_format') as string | null) ?? null,
          language: (form.get('language') as string | null) ?? null,
          filename: file instanceof File ? file.name : null,
          fileType: file instanceof File ? file.type : null,
          fileBytes: file instanceof File ? file.size : 0,
        });
        if (state.failWith !== null) {
          res.writeHead(state.failWith, { 'content-type': 'application/json' }).end('{"error":{"message":"boom"}}');
          return;
        }
        if (!(file instanceof File) || !form.get('model')) {
          res
            .writeHead(400, { 'content-type': 'application/json' })
            .end('{"error":{"message":"file and model are required"}}');
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            task: 'transcribe',
            language: 'german',
            duration: state.duration,
            text: ` ${FAKE_TRANSCRIPT}`,
            segments: [],
          }),
        );
      })().catch(() => res.destroy());
    });
  });
  const { port, close } = await listenOnLoopback(server);
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    get duration() {
      return state.duration;
    },
    set duration(value) {
      state.duration = value;
    },
    get failWith() {
      return state.failWith;
    },
    set failWith(value) {
      state.failWith = value;
    },
    close,
  };
}

/** A PCM WAV file of `seconds` of silence (8 kHz, 8-bit mono: 8000 bytes per second). */
export function silentWav(seconds: number): Buffer {
  const dataSize = Math.round(8000 * seconds);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + dataSize, 4);
  header.write('WAVE', 8, 'latin1');
  header.write('fmt ', 12, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(8000, 24);
  header.writeUInt32LE(8000, 28);
  header.writeUInt16LE(1, 32);
  header.writeUInt16LE(8, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(dataSize, 40);
  return Buffer.concat([header, Buffer.alloc(dataSize, 0x80)]);
}
