import type { AppConfig } from '@research/core';
import type { ProvidersResponse } from '../routes/system.schemas';

/** SPEC 4.1 /providers: availability, model names and the LLM concurrency; never URLs, keys or other config. */
export function presentProviders(config: AppConfig): ProvidersResponse {
  const { llm, vision, audio } = config;
  return {
    llm: llm.baseUrl
      ? { available: true, model: llm.model ?? '', max_concurrency: llm.maxConcurrency }
      : { available: false },
    vision: vision.baseUrl && vision.model ? { available: true, model: vision.model } : { available: false },
    audio: audio.baseUrl && audio.model ? { available: true, model: audio.model } : { available: false },
  };
}
