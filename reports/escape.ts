/** Escaping for the three text formats the reports are written in. */

// XML 1.0 forbids most C0 controls, lone surrogates and U+FFFE/U+FFFF even when escaped.
const XML_INVALID =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point here
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function visible(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** Text for an XML attribute value or element content. */
export function escapeXml(text: string): string {
  return text
    .replace(XML_INVALID, visible)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** Text for HTML element content or a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Text for one cell of a Markdown table: one line, pipes escaped, HTML kept inert. */
export function escapeMdCell(text: string): string {
  return text
    .replace(/\r?\n+/g, ' ')
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .trim();
}

/** Inline code in Markdown that survives backticks inside the text. */
export function mdCode(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** First line of a possibly long message, for tables. */
export function firstLine(text: string, max = 200): string {
  const line = text.split(/\r?\n/, 1)[0] ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/**
 * Where a test's screenshot lives, relative to its run folder: `screenshots/<test id>.png`
 * with every character but letters, digits, `.`, `_` and `-` written `_` (so `hub/opens-a-page`
 * is `screenshots/hub_opens-a-page.png`). The browser tests write it, index.html links it.
 */
export function screenshotFile(testId: string): string {
  return `screenshots/${testId.replace(/[^A-Za-z0-9._-]/g, '_')}.png`;
}
