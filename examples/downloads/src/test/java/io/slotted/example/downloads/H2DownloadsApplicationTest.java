package io.slotted.example.downloads;

/** The example as it starts by default: H2 in memory. */
class H2DownloadsApplicationTest extends DownloadsApplicationSuite {
}
