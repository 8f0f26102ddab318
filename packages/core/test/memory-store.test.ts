import { memoryStore } from '@resourcery/core';
import { storeConformanceSuite } from '@resourcery/testing/suites';

storeConformanceSuite('memory', (options) => memoryStore({ changes: { retentionMs: options?.changeRetentionMs } }));
