/**
 * The deepest nesting of arrays and objects any door accepts in a JSON body. The deepest request of this API (an A2A
 * message with a brief in a data part, a 2026-07-28 MCP call with its `_meta` and a form's answer) nests under 10 levels;
 * 32 leaves room for a client's metadata. Deeper bodies fit in the size limits (`[` is one byte a level) and would reach
 * code that walks them recursively (the SDKs' decoders, a digest of a call's arguments), which a deep enough one
 * overflows: they are refused at the gate instead.
 */
export const maxJsonDepth = 32;
