import { LlmFailure, normalizeWhitespace, type LlmClient } from '@research/core';
import { groundSpan, visionPromptV1 } from '@research/engine';

/** A claim an image supports, its evidence span quoting the model's description of the image. */
export interface ImageClaim {
  claim_text: string;
  evidence_span: string;
  claim_type: string;
  confidence: number;
}

/** What a vision model read in an image, or why it gave no usable answer (an LLM failure's kind). */
export type ImageReading =
  { ok: true; description: string; claims: ImageClaim[] } | { ok: false; failure: string; reason: string };

/**
 * Asks the vision model for a description of one image and the claims it supports, keeping a claim only
 * when its evidence span occurs in the description (the grounding claim extraction uses). An LLM failure
 * is returned, not thrown, unless the request was aborted.
 */
export async function readImage(
  vision: LlmClient,
  image: { mediaType: string; base64: string },
  request: { prompt: string | null; language: string; signal: AbortSignal },
): Promise<ImageReading> {
  let answer: visionPromptV1.VisionAnswer;
  try {
    answer = await vision.complete(
      { usage: {}, budget: { max_llm_requests: 2, max_context_per_llm_call: 16_000 }, signal: request.signal },
      {
        name: visionPromptV1.name,
        system: visionPromptV1.system,
        user: visionPromptV1.user({ prompt: request.prompt, language: request.language }),
        schema: visionPromptV1.schema,
        maxTokens: 2000,
        images: [image],
      },
    );
  } catch (error) {
    if (!(error instanceof LlmFailure) || request.signal.aborted) throw error;
    return { ok: false, failure: error.kind, reason: error.message };
  }
  const description = answer.description.trim();
  const claims = answer.claims.flatMap((c) => {
    const span = groundSpan(c.evidence_span, description, request.language);
    if (!span) return [];
    return [
      {
        claim_text: normalizeWhitespace(c.claim_text),
        evidence_span: span,
        claim_type: c.claim_type,
        confidence: Math.round(c.confidence * 100) / 100,
      },
    ];
  });
  return { ok: true, description, claims };
}
