import { memoryStore } from '@resourcery/core';
import { storeConformanceSuite } from '@resourcery/testing';

storeConformanceSuite('memory', () => memoryStore());
