package dev.ferry.liberty.embedded;

import dev.ferry.liberty.support.Http;
import dev.ferry.liberty.support.ServerLog;

/** The test server {@code ferry-test} (see its server.xml): HTTP port and its embedded engine's name server. */
final class EmbeddedServer {
    static final Http HTTP = new Http(19080);
    static final String NAME_SERVER = "127.0.0.1:19876";
    static final ServerLog LOG = new ServerLog("ferry-test");

    private EmbeddedServer() {
    }
}
