/** Files imported as text with `with { type: "text" }` (CSS is declared as a string by astro/client already). */
declare module "*.yaml" {
  const text: string;
  export default text;
}
