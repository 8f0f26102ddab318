import { memoryStore } from '@resourcery/core';
import { serveHttp } from '@resourcery/testing';
import { httpConformanceSuite } from '@resourcery/testing/suites';
import { createApp } from '../src/app.js';

// The example app as shipped (its own book resource, request log off) honours the whole HTTP contract.
httpConformanceSuite('books example + memory store', () => serveHttp(createApp(memoryStore())));
