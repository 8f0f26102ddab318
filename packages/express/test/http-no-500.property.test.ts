import { memoryStore } from '@resourcery/core';
import { neverA500Suite } from '../../../test-support/never-500-suite.js';

// Random requests through Express on the memory store; the SQL stores run the same suite.
neverA500Suite('memory', () => memoryStore(), 300);
