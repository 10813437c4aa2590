package dev.ferry.server.broker;

import dev.ferry.remoting.RemotingClient;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.RemotingException;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.protocol.body.BodyCodec;
import dev.ferry.remoting.protocol.body.RegisterBrokerBody;
import dev.ferry.remoting.protocol.header.RegisterBrokerRequestHeader;
import dev.ferry.remoting.protocol.header.UnregisterBrokerRequestHeader;
import java.time.Duration;
import java.util.List;
import java.util.zip.CRC32;

/**
 * Registers the broker and its topics with every name server: at start, periodically, and
 * right after topics change so new routes are visible at once. Unregisters at shutdown.
 */
final class BrokerRegistration {
    private static final System.Logger LOG = System.getLogger(BrokerRegistration.class.getName());
    private static final Duration TIMEOUT = Duration.ofSeconds(3);

    private final BrokerConfig config;
    private final TopicConfigTable topics;
    private final RemotingClient client;
    private final BodyCodec json;
    private volatile String brokerAddress;

    BrokerRegistration(BrokerConfig config, TopicConfigTable topics, RemotingClient client, BodyCodec json) {
        this.config = config;
        this.topics = topics;
        this.client = client;
        this.json = json;
    }

    void brokerAddress(String address) {
        this.brokerAddress = address;
    }

    /** Registers with every name server; returns how many accepted. */
    int registerAll() {
        byte[] body = json.encode(new RegisterBrokerBody(topics.snapshot(), List.of()));
        CRC32 crc = new CRC32();
        crc.update(body);
        RegisterBrokerRequestHeader header = new RegisterBrokerRequestHeader(config.brokerName(), brokerAddress,
                config.clusterName(), brokerAddress, 0L, null, false, false, (int) (crc.getValue() & 0x7FFFFFFF));
        int accepted = 0;
        for (String nameServer : config.nameServers()) {
            try {
                RemotingCommand response = client.invokeSync(nameServer,
                        RemotingCommand.request(RequestCode.REGISTER_BROKER, header).body(body).build(), TIMEOUT);
                if (response.code() == ResponseCode.SUCCESS) {
                    accepted++;
                } else {
                    LOG.log(System.Logger.Level.WARNING, "name server {0} refused the registration: {1} {2}",
                            nameServer, response.code(), response.remark());
                }
            } catch (RemotingException e) {
                LOG.log(System.Logger.Level.WARNING, "cannot register with name server {0}: {1}", nameServer,
                        e.getMessage());
            }
        }
        return accepted;
    }

    void unregisterAll() {
        UnregisterBrokerRequestHeader header = new UnregisterBrokerRequestHeader(config.brokerName(), brokerAddress,
                config.clusterName(), 0L);
        for (String nameServer : config.nameServers()) {
            try {
                client.invokeSync(nameServer, RemotingCommand.request(RequestCode.UNREGISTER_BROKER, header).build(),
                        TIMEOUT);
            } catch (RemotingException e) {
                LOG.log(System.Logger.Level.DEBUG, "cannot unregister from {0}: {1}", nameServer, e.getMessage());
            }
        }
    }
}
