// What the tests of the guides read in a Markdown file: its prose (outside fenced code) and its links.

/** The text of a Markdown file outside fenced code blocks. */
export const prose = (markdown: string): string => markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '');

/** Every link `[text](target)` of a Markdown file outside code. */
export function links(markdown: string): string[] {
  const text = prose(markdown).replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1] ?? '');
}

/** A link to another site or scheme (http:, https:, mailto:), not to a file beside the page. */
export const isExternal = (target: string): boolean => /^[a-z][a-z0-9+.-]*:/i.test(target);
