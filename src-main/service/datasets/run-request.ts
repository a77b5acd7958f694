import type { z } from 'zod';
import type { RunRequest } from '../../../src-shared/owner/runs.ts';
import type { Sample } from '../../../src-shared/schemas/sample.ts';
import type { OperationRequest } from '../runs/contract.ts';

/** A run request as the handlers receive it: validated, defaults filled in. */
export type ParsedRunRequest = z.output<typeof RunRequest>;

/** The operation a run performs on one batch of its samples. */
export function operationFor(request: ParsedRunRequest, samples: Sample[]): OperationRequest {
  switch (request.operation) {
    case 'audit':
      return {
        operation: 'audit',
        samples,
        config: request.config,
        conventions: request.conventions,
      };
    case 'fix':
      return {
        operation: 'fix',
        samples,
        config: request.config,
        conventions: request.conventions,
      };
    case 'refine':
      return {
        operation: 'refine',
        samples,
        config: request.config,
        conventions: request.conventions,
      };
  }
}
