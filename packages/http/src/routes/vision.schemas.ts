import { z } from 'zod';
import { boundedText } from '../validation';

/** POST /vision/analyze: exactly one of image_url and image_base64. */
export const visionBodySchema = z
  .object({
    image_url: boundedText(1, 2048)
      .optional()
      .meta({ description: 'An http(s) URL of a PNG, JPEG, GIF or WebP image.' }),
    image_base64: z
      .string({ error: 'must be a string' })
      .optional()
      .meta({ description: 'The image as base64 (or a data: URL), at most VISION_MAX_IMAGE_BYTES decoded.' }),
    prompt: boundedText(1, 2000).nullable().optional().meta({ description: 'What to look for.' }),
    language: boundedText(1, 64).default('de').meta({ example: 'de' }),
  })
  .superRefine((body, ctx) => {
    if ((body.image_url === undefined) === (body.image_base64 === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['image_url'], message: 'give exactly one of image_url and image_base64' });
    }
  })
  .meta({
    id: 'VisionRequest',
    example: { image_url: 'https://example.org/chart.png', prompt: 'Welche Werte zeigt das Diagramm?' },
  });
export type VisionBody = z.output<typeof visionBodySchema>;

export const visionResponseSchema = z
  .object({
    description: z.string(),
    claims: z.array(
      z.object({
        claim_text: z.string(),
        evidence_span: z.string().meta({ description: 'Occurs verbatim in `description`.' }),
        claim_type: z.string(),
        confidence: z.number(),
      }),
    ),
    model: z.string(),
    media_type: z.string(),
    bytes: z.number().int(),
  })
  .meta({
    id: 'VisionResponse',
    example: {
      description: 'Ein Balkendiagramm zeigt die Produktivität 2019 bei 100 und 2021 bei 113.',
      claims: [
        {
          claim_text: 'Die Produktivität stieg von 100 (2019) auf 113 (2021).',
          evidence_span: 'Ein Balkendiagramm zeigt die Produktivität 2019 bei 100 und 2021 bei 113.',
          claim_type: 'fact',
          confidence: 0.8,
        },
      ],
      model: 'llava',
      media_type: 'image/png',
      bytes: 48211,
    },
  });
export type VisionResponse = z.infer<typeof visionResponseSchema>;
