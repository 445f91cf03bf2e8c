/**
 * What a browser downloads to render /login: index.html, the entry module with every
 * module it imports statically (transitively), and their CSS, read from Vite's manifest
 * (https://vite.dev/guide/backend-integration). Dynamic imports (the signed-in pages)
 * are left out: a guest never fetches them.
 */
export interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
}

export type Manifest = Record<string, ManifestChunk>;

/**
 * Files, relative to the build folder, starting with the HTML page itself. `lazy` names
 * dynamically imported chunks a page also needs before it shows (e.g. 'pages/home.tsx'
 * for the signed-in home page), taken with their own static imports.
 */
export function firstLoadFiles(manifest: Manifest, entry = 'index.html', lazy: string[] = []): string[] {
  const files = new Set<string>([entry]);
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`The Vite manifest has no "${key}" chunk.`);
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(entry);
  for (const key of lazy) visit(key);
  return [...files];
}
