import { Tiktoken } from "js-tiktoken/lite";
import o200k_base from "js-tiktoken/ranks/o200k_base";

/**
 * The X-Markdown-Tokens count: exact, in OpenAI's o200k_base encoding, computed at build time into dist/_headers.
 * Build-time only: the tokenizer's ranks are megabytes, so the edge function passes the static twin's header on
 * instead of importing this module.
 */
let encoder: Tiktoken | undefined;
export const countTokens = (markdown: string) => (encoder ??= new Tiktoken(o200k_base)).encode(markdown).length;
