import { z } from 'zod';
import {
  bylawForEditingSchema,
  bylawSavedSchema,
  bylawSchoolSchema,
  bylawShortSchema,
  bylawStandardSchema,
} from '../schemas/bylaws.ts';
import { fileAnswer, validationFailedSchema } from './common.ts';
import { defineContract } from './contract.ts';
import type { BylawsDocument } from '../bylaws/document.ts';

/** `{hash}`: the saved bylaw's random hash, its capability (32 hex characters; anything else is 404). */
const hashParams = z.object({ hash: z.string() });

/** The media type of a Word document (.docx). */
export const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** The answer of a save: where later saves go, the page that reopens them, the download and preview. */
const savedAnswer = { 201: bylawSavedSchema, 422: validationFailedSchema };

/**
 * The bylaws generator (docs/requirements/product.md tool 3, docs/requirements/calls.md): a first
 * Generate POSTs to the variant's page, later ones PUT to the action it answered; the saved bylaw is
 * reopened, previewed and downloaded by its hash. Anyone may call them; the answers are their
 * creator's (session or user), the document is anyone's who holds the hash.
 */
export const bylawContracts = {
  createStandard: defineContract({
    method: 'POST',
    url: '/bylaws-generator',
    access: 'visitor',
    summary: 'Generate bylaws (standard variant)',
    body: bylawStandardSchema,
    response: savedAnswer,
  }),
  createSchool: defineContract({
    method: 'POST',
    url: '/bylaws-generator/school',
    access: 'visitor',
    summary: 'Generate bylaws (school variant)',
    body: bylawSchoolSchema,
    response: savedAnswer,
  }),
  createShort: defineContract({
    method: 'POST',
    url: '/bylaws-generator/short',
    access: 'visitor',
    summary: 'Generate bylaws (short variant)',
    body: bylawShortSchema,
    response: savedAnswer,
  }),
  update: defineContract({
    method: 'PUT',
    url: '/bylaws-generator/:hash',
    access: 'visitor',
    scoped: true,
    summary: 'Generate saved bylaws again with changed answers (their creator only)',
    params: hashParams,
    // The saved bylaw's variant decides the rules (its schema in shared/schemas/bylaws.ts), so the
    // service checks the answers once it has read the row.
    body: z
      .looseObject({ version: z.unknown().optional() })
      .describe("The answers of the saved bylaw's variant, as its create route takes them"),
    response: { 200: bylawSavedSchema, 422: validationFailedSchema },
  }),
  forEditing: defineContract({
    method: 'GET',
    url: '/api/bylaws/:hash',
    access: 'visitor',
    scoped: true,
    summary: 'Saved bylaws reopened for editing (their creator only)',
    params: hashParams,
    response: { 200: bylawForEditingSchema },
  }),
  document: defineContract({
    method: 'GET',
    url: '/api/bylaws/:hash/document',
    access: 'visitor',
    summary: 'The document model of saved bylaws, for the built-in preview',
    params: hashParams,
    response: {
      200: z.object({
        document: z
          .custom<BylawsDocument>((v) => typeof v === 'object' && v !== null)
          .describe('The bylaws document: title, sections, paragraphs and runs'),
        file_name: z.string(),
      }),
    },
  }),
  download: defineContract({
    method: 'GET',
    url: '/bylaws-generator/download/:hash',
    access: 'visitor',
    summary: 'Saved bylaws as a Word document',
    params: hashParams,
    response: { 200: fileAnswer('The bylaws as a Word document') },
    produces: [DOCX_TYPE],
  }),
};

/** The create contract of each variant's page. */
export const BYLAW_CREATE_CONTRACTS = {
  standard: bylawContracts.createStandard,
  school: bylawContracts.createSchool,
  short: bylawContracts.createShort,
} as const;
