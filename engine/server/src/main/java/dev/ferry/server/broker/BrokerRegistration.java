package dev.ferry.server.broker;

import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.RemotingException;
import dev.ferry.remoting.endpoint.RemotingClient;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.protocol.body.BodyCodec;
import dev.ferry.remoting.protocol.body.CompressedRegistration;
import dev.ferry.remoting.protocol.body.RegisterBrokerBody;
import dev.ferry.remoting.protocol.body.TopicConfig;
import dev.ferry.remoting.protocol.body.TopicConfigSerializeWrapper;
import dev.ferry.remoting.protocol.header.RegisterBrokerRequestHeader;
import dev.ferry.remoting.protocol.header.RegisterBrokerResponseHeader;
import dev.ferry.remoting.protocol.header.UnregisterBrokerRequestHeader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;
import java.util.zip.CRC32;

/**
 * Registers the broker and its topics with every name server: at start, periodically, and
 * right after topics change so new routes are visible at once. Unregisters at shutdown.
 *
 * <p>However many topics: a body over {@value #COMPRESS_ABOVE} bytes goes compressed, in Apache's
 * {@code compressedRegister} layout (an Apache name server reads it); one still too large for a
 * frame is split into registrations of part of the topics each, which name servers merge, since a
 * registration never removes the topics it omits.
 */
final class BrokerRegistration implements NameServerRegistration {
    private static final System.Logger LOG = System.getLogger(BrokerRegistration.class.getName());
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    /** JSON bodies up to this go as they are, the form every name server reads. */
    static final int COMPRESS_ABOVE = 4 << 20;
    /** A compressed body above this is split: the frame holds 16 MiB with the header. */
    static final int SPLIT_ABOVE = 12 << 20;

    private final BrokerConfig config;
    private final TopicConfigTable topics;
    private final RemotingClient client;
    private final BodyCodec json;
    private final CompressedRegistration compressed;
    private final int compressAbove;
    private final int splitAbove;
    private volatile String brokerAddress;
    private volatile String haAddress;
    /** Told of each name server's answer naming this broker group's master: what a slave replicates from. */
    private volatile BiConsumer<String, String> masterListener = (master, ha) -> { };

    BrokerRegistration(BrokerConfig config, TopicConfigTable topics, RemotingClient client, BodyCodec json) {
        this(config, topics, client, json, COMPRESS_ABOVE, SPLIT_ABOVE);
    }

    BrokerRegistration(BrokerConfig config, TopicConfigTable topics, RemotingClient client, BodyCodec json,
                       int compressAbove, int splitAbove) {
        this.config = config;
        this.topics = topics;
        this.client = client;
        this.json = json;
        this.compressed = new CompressedRegistration(json);
        this.compressAbove = compressAbove;
        this.splitAbove = splitAbove;
    }

    /** {@code listener} gets the master's address and HA address from each answer that names them (slaves). */
    @Override
    public void whenMasterNamed(BiConsumer<String, String> listener) {
        this.masterListener = listener;
    }

    /** Where clients reach the broker, and where slaves would replicate from. */
    @Override
    public void addresses(String address, String haAddress) {
        this.brokerAddress = address;
        this.haAddress = haAddress;
    }

    /**
     * Registers with every name server at once (one slow or unreachable name server delays none of the others);
     * returns how many accepted all the parts.
     */
    @Override
    public int registerAll() {
        List<RemotingCommand> requests = requests(topics.snapshot());
        List<CompletableFuture<Boolean>> answers = new ArrayList<>();
        for (String nameServer : config.nameServers()) {
            CompletableFuture<Boolean> all = CompletableFuture.completedFuture(true);
            for (RemotingCommand request : requests) {
                all = all.thenCombine(registerWith(nameServer, request), Boolean::logicalAnd);
            }
            answers.add(all);
        }
        return (int) answers.stream().filter(CompletableFuture::join).count();
    }

    private CompletableFuture<Boolean> registerWith(String nameServer, RemotingCommand request) {
        try {
            return client.invokeAsync(nameServer, request, TIMEOUT).handle((response, error) -> {
                if (error != null) {
                    LOG.log(System.Logger.Level.WARNING, "cannot register with name server {0}: {1}", nameServer,
                            error.getMessage());
                    return false;
                }
                if (response.code() != ResponseCode.SUCCESS) {
                    LOG.log(System.Logger.Level.WARNING, "name server {0} refused the registration: {1} {2}",
                            nameServer, response.code(), response.remark());
                    return false;
                }
                masterNamed(response);
                return true;
            });
        } catch (RemotingException e) {
            LOG.log(System.Logger.Level.WARNING, "cannot register with name server {0}: {1}", nameServer,
                    e.getMessage());
            return CompletableFuture.completedFuture(false);
        }
    }

    private void masterNamed(RemotingCommand response) {
        try {
            RegisterBrokerResponseHeader answer = response.header(RegisterBrokerResponseHeader.class);
            if (answer.masterAddr() != null && !answer.masterAddr().isEmpty()) {
                masterListener.accept(answer.masterAddr(), answer.haServerAddr());
            }
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "no master in a name server''s answer: {0}", e.getMessage());
        }
    }

    /** The registrations that carry these topics: one, unless even compressed they do not fit a frame. */
    List<RemotingCommand> requests(TopicConfigSerializeWrapper snapshot) {
        RegisterBrokerBody body = new RegisterBrokerBody(snapshot, List.of());
        byte[] plain = json.encode(body);
        if (plain.length <= compressAbove) {
            return List.of(request(plain, false));
        }
        byte[] compressed = this.compressed.encode(body);
        if (compressed.length <= splitAbove || snapshot.topicConfigTable().size() < 2) {
            return List.of(request(compressed, true));
        }
        List<Map<String, TopicConfig>> halves = List.of(new HashMap<>(), new HashMap<>());
        int i = 0;
        for (Map.Entry<String, TopicConfig> topic : snapshot.topicConfigTable().entrySet()) {
            halves.get(i++ % 2).put(topic.getKey(), topic.getValue());
        }
        List<RemotingCommand> parts = new ArrayList<>();
        for (Map<String, TopicConfig> half : halves) {
            parts.addAll(requests(new TopicConfigSerializeWrapper(half, snapshot.dataVersion())));
        }
        return parts;
    }

    private RemotingCommand request(byte[] body, boolean isCompressed) {
        CRC32 crc = new CRC32();
        crc.update(body);
        RegisterBrokerRequestHeader header = new RegisterBrokerRequestHeader(config.brokerName(), brokerAddress,
                config.clusterName(), haAddress, config.brokerId(), null, false, isCompressed,
                (int) (crc.getValue() & 0x7FFFFFFF));
        return RemotingCommand.request(RequestCode.REGISTER_BROKER, header).body(body).build();
    }

    @Override
    public void unregisterAll() {
        UnregisterBrokerRequestHeader header = new UnregisterBrokerRequestHeader(config.brokerName(), brokerAddress,
                config.clusterName(), config.brokerId());
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
