/**
 * Whose brief quota a filing counts against. A registered client is itself; a client identified by a metadata
 * document (its client_id is an https URL) shares one quota with every document on the same host, because anyone
 * can publish any number of documents on a host they control.
 */
export function briefQuotaSubject(clientId: string): string {
  if (!/^https?:\/\//i.test(clientId)) return clientId;
  try {
    return `host:${new URL(clientId).host}`;
  } catch {
    return clientId;
  }
}
