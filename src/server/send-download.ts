import type { FastifyReply } from 'fastify';

/**
 * Sends a staff export (CSV, PDF) as a file to download, never cached: the lists it comes from
 * change, and they hold names and addresses of groups (docs/security.md).
 * @param fileName the name the browser saves it under, e.g. "audit-log-2026-11-26.csv"
 * @param contentType e.g. 'text/csv; charset=utf-8' or 'application/pdf'
 */
export function sendDownload(reply: FastifyReply, body: string | Buffer, fileName: string, contentType: string) {
  return reply
    .header('content-type', contentType)
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .header('cache-control', 'private, no-store')
    .send(body);
}
