import type { Scope } from "../tokens/metadata.ts";
import { bookingsPath, briefsPath, freeTimesPath, resourcePaths } from "../paths.ts";
import { catalogIds, resourceCatalog, type CatalogId } from "./catalog.ts";

/**
 * The operations of /api/v1, each with its OpenAPI operationId and the scopes its access token needs. The index and
 * the OpenAPI document both read this table, so the index's links into the document cannot break.
 */
export interface ApiOperation {
  method: "GET" | "POST";
  path: string;
  operationId: string;
  /** Scopes the bearer token must carry; none for the public reads. */
  scopes: readonly Scope[];
}

/** `case-studies` -> `CaseStudies`: how operationIds and OpenAPI component names spell an id. */
export const pascal = (id: string) => id.replace(/(^|[-_])(\w)/g, (_, __, c: string) => c.toUpperCase());

export const readOperation = (id: CatalogId | "index"): ApiOperation => ({
  method: "GET",
  path: resourcePaths[id],
  operationId: `get${pascal(id)}`,
  scopes: [],
});

export const fileBriefOperation = {
  method: "POST",
  path: briefsPath,
  operationId: "fileBrief",
  scopes: ["svc:brief"],
} as const satisfies ApiOperation;

/** The intro call's operations. */
export const bookingOperations = {
  freeTimes: { method: "GET", path: freeTimesPath, operationId: "getFreeTimes", scopes: [] },
  book: { method: "POST", path: bookingsPath, operationId: "bookIntroCall", scopes: ["svc:brief"] },
  getBooking: { method: "GET", path: `${bookingsPath}/{id}`, operationId: "getBooking", scopes: ["svc:read"] },
  cancelBooking: { method: "POST", path: `${bookingsPath}/{id}/cancel`, operationId: "cancelBooking", scopes: ["svc:brief"] },
} as const satisfies Record<string, ApiOperation>;

/** Every resource the index lists: the reads of the catalog, the brief, then the intro call. */
export const indexedResources: { id: string; description: string; operations: ApiOperation[] }[] = [
  ...catalogIds.map((id) => ({ id, description: resourceCatalog[id].description, operations: [readOperation(id)] })),
  {
    id: "briefs",
    description:
      "The one write: a project brief, which becomes a real lead that a person answers by e-mail. File one only when the person you act for asked to be contacted.",
    operations: [fileBriefOperation],
  },
  {
    id: "free-times",
    description: "Free times for the studio's intro call, in the time zone you ask for. Public.",
    operations: [bookingOperations.freeTimes],
  },
  {
    id: "bookings",
    description:
      "Book the intro call for the person you act for (svc:brief, as a brief), read it and cancel it. Book only a time the person confirmed.",
    operations: [bookingOperations.book, bookingOperations.getBooking, bookingOperations.cancelBooking],
  },
];

/** A JSON Pointer token as a URI fragment holds it (RFC 6901 §6): `~` and `/` escaped, then percent-encoded (RFC 3986). */
export const fragmentToken = (token: string) => encodeURIComponent(token.replace(/~/g, "~0").replace(/\//g, "~1"));

/**
 * The operation's place in the OpenAPI document, as a URI fragment holding a JSON Pointer: the braces of a path
 * template are not allowed in a fragment, so `/bookings/{id}` is `~1bookings~1%7Bid%7D`, and `openapi_url` is a URI.
 */
export const operationPointer = ({ path, method }: Pick<ApiOperation, "path" | "method">) =>
  `#/${["paths", path, method.toLowerCase()].map(fragmentToken).join("/")}`;
