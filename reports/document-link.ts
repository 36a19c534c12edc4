/**
 * Where a section of the document is, when a copy is published: `EAC_DOCUMENT_URL` when the
 * reports are rendered. A URL with `{section}` gets the section number there
 * (`https://example.org/api.html#s-{section}`); a plain one gets `#section-<n>` appended.
 */
export function sectionUrl(base: string | undefined, section: string): string | undefined {
  if (base === undefined || base === '') return undefined;
  const number = encodeURIComponent(section);
  return base.includes('{section}')
    ? base.replaceAll('{section}', number)
    : `${base.replace(/#.*$/, '')}#section-${number}`;
}

/** `EAC_DOCUMENT_URL` from an environment, or undefined when unset or empty. */
export function documentUrlOf(
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  const url = env['EAC_DOCUMENT_URL'];
  return url !== undefined && url !== '' ? url : undefined;
}
