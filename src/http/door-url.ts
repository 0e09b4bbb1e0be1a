/**
 * Where the function at `functionUrl` (its `import.meta.url`) finds its door: build/doors/<name>.mjs (scripts/lib/doors.ts).
 * Built here, not written out in the function, so that Netlify's file tracer (nft) does not parse the door's megabytes
 * each time it packages a function (every netlify dev start); netlify.toml ships each door with its function instead
 * (`included_files`).
 */
export const doorUrl = (name: string, functionUrl: string) => new URL(`../build/doors/${name}.mjs`, functionUrl).href;
