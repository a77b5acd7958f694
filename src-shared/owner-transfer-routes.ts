import { z } from 'zod';
import type { RouteDoc } from './http-routes.ts';
import {
  OWNER_DOWNLOAD_PATH,
  OWNER_EVENTS_PATH,
  OWNER_UPLOAD_PATH,
  OwnerEvent,
} from './owner-api.ts';
import { NativeError } from './schemas/native.ts';

/** What `POST /owner-upload` answers: the id an `importPreview` / `importDataset` source names. */
export const UploadResult = z.object({
  upload_id: z.string(),
  file_name: z.string(),
  bytes: z.int().meta({ description: 'The bytes received and stored.' }),
});
export type UploadResult = z.infer<typeof UploadResult>;

const noSession = { description: 'No owner session.', schema: NativeError };

/**
 * The browser transport's side doors beside `POST /owner/<method>`: an
 * upload, the event stream and a download. Described here so the OpenAPI
 * document lists every route a client can call.
 */
export const OWNER_TRANSFER_ROUTES: RouteDoc[] = [
  {
    method: 'post',
    path: OWNER_UPLOAD_PATH,
    operationId: 'owner_upload',
    summary: 'Upload a file to import (streamed to disk); import it by its upload_id',
    tag: 'owner',
    security: 'owner_session',
    queryParams: {
      name: {
        description: 'The file name, whose extension says its format (default `upload`).',
        required: false,
      },
    },
    rawRequest: {
      contentType: 'application/octet-stream',
      description: 'The file’s bytes (JSON Lines, JSON, CSV or Parquet).',
    },
    responses: {
      200: { description: 'Stored.', schema: UploadResult },
      400: { description: 'An empty upload.', schema: NativeError },
      401: noSession,
    },
  },
  {
    method: 'get',
    path: OWNER_EVENTS_PATH,
    operationId: 'owner_events',
    summary: 'Import, run and index progress as server-sent events',
    tag: 'owner',
    security: 'owner_session',
    responses: {
      200: {
        description: 'An endless stream: one event per `data:` line, comments as keep-alives.',
        stream: {
          contentType: 'text/event-stream',
          schema: OwnerEvent,
          description: 'Each `data:` line holds one event as JSON.',
        },
      },
      401: noSession,
    },
  },
  {
    method: 'get',
    path: `${OWNER_DOWNLOAD_PATH}/{token}`,
    operationId: 'owner_download',
    summary: 'Download an export once (the download_url exportDataset answered)',
    tag: 'owner',
    security: 'owner_session',
    pathParams: {
      token: 'From `download_url`; served once, and expires with its file after an hour.',
    },
    responses: {
      200: {
        description: 'The exported file, as an attachment.',
        binary: { contentType: 'application/octet-stream', description: 'The file’s bytes.' },
      },
      401: noSession,
      404: { description: 'Unknown, served or expired token.', schema: NativeError },
    },
  },
];
