import { memoryStore } from '@resourcery/core';
import { storeConformanceSuite } from '@resourcery/core/testing';

storeConformanceSuite('memory', () => memoryStore());
