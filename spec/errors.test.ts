// The error catalogue (spec/errors.ts) against everything else that names error codes: the two
// OpenAPI documents, §7 of the service document and docs/errors.md (STYLE 5: one table, and a test
// that docs, types and table agree).
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { errorCatalogue, errorCodes, type ErrorCode } from './errors.ts';

interface Ref {
  $ref: string;
}
interface MediaType {
  schema?: unknown;
  example?: { error?: { code?: string } };
}
interface ResponseObject {
  description?: string;
  content?: Record<string, MediaType>;
}
interface OpenApiDocument {
  paths: Record<string, Record<string, { responses?: Record<string, Ref | ResponseObject> }>>;
  components?: { responses?: Record<string, ResponseObject> };
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);
const ERROR_ENVELOPE = { $ref: '#/components/schemas/ErrorEnvelope' };
/** An error code as §7 and the catalogue write them: upper-case words joined by underscores. */
const CODE = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/;
const CODE_IN_TEXT = /\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g;

const isCode = (value: string): value is ErrorCode => value in errorCatalogue;

interface ErrorResponse {
  readonly where: string;
  readonly status: number;
  readonly response: ResponseObject;
}

/** Every 4xx/5xx response of a document's operations, with `$ref`s to components resolved. */
function errorResponses(file: string): { text: string; responses: ErrorResponse[] } {
  const text = readFileSync(new URL(file, import.meta.url), 'utf8');
  const doc = parse(text) as OpenApiDocument;
  const resolve = (response: Ref | ResponseObject): ResponseObject => {
    if (!('$ref' in response)) return response;
    const name = response.$ref.replace('#/components/responses/', '');
    const resolved = doc.components?.responses?.[name];
    if (resolved === undefined) throw new Error(`${file}: unresolved response ${response.$ref}`);
    return resolved;
  };
  const responses = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.has(method))
      .flatMap(([method, operation]) =>
        Object.entries(operation.responses ?? {})
          .filter(([status]) => /^[45]\d\d$/.test(status))
          .map(([status, response]) => ({
            where: `${file} ${method.toUpperCase()} ${path} ${status}`,
            status: Number(status),
            response: resolve(response),
          })),
      ),
  );
  return { text, responses };
}

const service = { file: './openapi.yaml', ...errorResponses('./openapi.yaml') };
const hooks = { file: './hooks.openapi.yaml', ...errorResponses('./hooks.openapi.yaml') };
const documents = [service, hooks];

describe('error catalogue and the OpenAPI documents', () => {
  const section7Codes = errorCodes.filter((code) => errorCatalogue[code].source === '§7');

  it('has the §7 codes at all', () => {
    expect(section7Codes.length, 'the catalogue should carry the codes §7 names').toBeGreaterThan(
      0,
    );
  });

  it.each(section7Codes)('names the §7 code %s in spec/openapi.yaml', (code) => {
    expect(
      new RegExp(`\\b${code}\\b`).test(service.text),
      `${code} should appear in a description, enum or example of spec/openapi.yaml`,
    ).toBe(true);
  });

  describe.each(documents)('$file', ({ file, responses }) => {
    it('has error responses', () => {
      expect(responses.length, `${file} should describe its error responses`).toBeGreaterThan(0);
    });

    it('answers every error status with the §7 ErrorEnvelope', () => {
      for (const { where, response } of responses) {
        expect(
          response.content?.['application/json']?.schema,
          `${where} must use ErrorEnvelope`,
        ).toEqual(ERROR_ENVELOPE);
      }
    });

    it('uses only error statuses the catalogue has a code for', () => {
      const statuses = [...new Set(responses.map((r) => r.status))].sort((a, b) => a - b);
      const catalogued = new Set<number>(errorCodes.map((code) => errorCatalogue[code].status));
      const orphans = statuses.filter((status) => !catalogued.has(status));
      expect(orphans, 'each error status needs at least one catalogue code').toEqual([]);
    });

    it('names in its error responses only catalogue codes, each with the response status', () => {
      for (const { where, status, response } of responses) {
        const example = response.content?.['application/json']?.example?.error?.code;
        if (example !== undefined) {
          expect(isCode(example), `${where}: example code ${example} is not catalogued`).toBe(true);
          if (isCode(example)) {
            expect(errorCatalogue[example].status, `${where}: ${example} has another status`).toBe(
              status,
            );
          }
        }
        for (const named of response.description?.match(CODE_IN_TEXT) ?? []) {
          expect(isCode(named), `${where}: description names ${named}, not catalogued`).toBe(true);
          if (isCode(named)) {
            expect(errorCatalogue[named].status, `${where}: ${named} has another status`).toBe(
              status,
            );
          }
        }
      }
    });
  });
});

// §7 of the service document: its table of statuses and codes.
const serviceDocument = new URL('../../shared/spec/service-api.md', import.meta.url);
const haveServiceDocument = existsSync(serviceDocument);

interface Section7Row {
  readonly status: number;
  /** Undefined where the document names no code for the status. */
  readonly code: string | undefined;
}

function section7Table(markdown: string): Section7Row[] {
  const section = /^## 7\. Errors$([\s\S]*?)^## /m.exec(markdown)?.[1] ?? '';
  return section
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .map((line) =>
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    )
    .filter(([status]) => /^\d{3}$/.test(status ?? ''))
    .map(([status, code]) => ({
      status: Number(status),
      code: code !== undefined && CODE.test(code) ? code : undefined,
    }));
}

describe.skipIf(!haveServiceDocument)(
  haveServiceDocument
    ? 'error catalogue and §7 of the service document'
    : `error catalogue and §7 (skipped: the service document ${serviceDocument.pathname} is absent)`,
  () => {
    const rows = haveServiceDocument ? section7Table(readFileSync(serviceDocument, 'utf8')) : [];
    const named = rows.filter(
      (row): row is { status: number; code: string } => row.code !== undefined,
    );

    it('reads the five rows of the §7 table', () => {
      expect(rows.length, 'the §7 table should have five rows; has the document changed?').toBe(5);
    });

    it.each(named)('gives $code the status $status, as §7 does', ({ code, status }) => {
      expect(isCode(code), `${code} from §7 should be in the catalogue`).toBe(true);
      if (!isCode(code)) return;
      expect(errorCatalogue[code].status, `${code} should answer ${status}`).toBe(status);
      expect(errorCatalogue[code].source, `${code} should be marked as coming from §7`).toBe('§7');
    });

    it('marks as §7 only codes that §7 names', () => {
      const fromTable = new Set(named.map((row) => row.code));
      const extra = errorCodes.filter(
        (code) => errorCatalogue[code].source === '§7' && !fromTable.has(code),
      );
      expect(extra, 'these codes claim §7 but the table does not name them').toEqual([]);
    });

    it('has a code of our own for each §7 status the document leaves without one', () => {
      for (const { status } of rows.filter((row) => row.code === undefined)) {
        const decided = errorCodes.filter(
          (code) =>
            errorCatalogue[code].status === status && errorCatalogue[code].source === 'decision',
        );
        expect(decided.length, `status ${status} needs a decided code`).toBeGreaterThan(0);
      }
    });
  },
);

/** The text under a heading named `title`, up to the next heading of the same or a higher level. */
function markdownSection(markdown: string, title: string): string | undefined {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => new RegExp(`^#{1,6} ${title}\\s*$`).test(line));
  if (start === -1) return undefined;
  const level = /^#+/.exec(lines[start] ?? '')?.[0].length ?? 1;
  const end = lines.findIndex(
    (line, i) => i > start && (/^#+/.exec(line)?.[0].length ?? Infinity) <= level,
  );
  return lines.slice(start + 1, end === -1 ? undefined : end).join('\n');
}

// docs/errors.md: the page that lists every code for readers.
const readmeErrors =
  markdownSection(readFileSync(new URL('../docs/errors.md', import.meta.url), 'utf8'), 'Errors') ??
  '';

describe('error catalogue and docs/errors.md', () => {
  it('names every catalogue code in docs/errors.md', () => {
    const missing = errorCodes.filter((code) => !new RegExp(`\\b${code}\\b`).test(readmeErrors));
    expect(missing, 'docs/errors.md should list every code of spec/errors.ts').toEqual([]);
  });

  it('marks in docs/errors.md which codes come from §7 and which are decisions, as the catalogue does', () => {
    const marked = new Map<string, string>();
    for (const line of readmeErrors.split('\n')) {
      const cells = line.split('|').map((c) => c.trim());
      const code = /^`([A-Z_0-9]+)`$/.exec(cells[2] ?? '')?.[1];
      if (code !== undefined) marked.set(code, cells[3] ?? '');
    }
    const wrong = errorCodes.filter((code) => marked.get(code) !== errorCatalogue[code].source);
    expect(wrong, 'docs/errors.md source column = spec/errors.ts source').toEqual([]);
  });
});
