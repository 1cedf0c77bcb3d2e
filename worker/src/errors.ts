import { UnrecoverableError } from 'bullmq';

/** A payload that can never succeed (bad day format, out-of-range number): fail without retrying. */
export class InvalidPayloadError extends UnrecoverableError {
  constructor(jobName: string, detail: string) {
    super(`Invalid payload for job "${jobName}": ${detail}`);
    this.name = 'InvalidPayloadError';
  }
}
