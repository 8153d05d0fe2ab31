package io.slotted.campaign.faults;

import io.slotted.db.GaleraCluster;
import io.slotted.db.MariaDbTestDatabase;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * A private 3-node MariaDB Galera cluster ({@link GaleraCluster}, run by the repository's
 * {@code scripts/galera-cluster.sh}) with its files under {@code target/} and its own ports, so that it meets neither the machine's
 * MariaDB nor the cluster the core tests start. Each application process of the campaign counts
 * through its own node, so increments of one counter are certified against each other across
 * nodes.
 *
 * <p>The database's faults take one node at a time, in turn, as Galera is run for: a node paused
 * (the others suspect it and go on without it after a few seconds), or killed and started again,
 * rejoining through an incremental state transfer. The cluster as a whole stays up.
 */
final class GaleraCampaignServer implements CampaignServer {
    /** Node 1's client port; node {@code n} listens on {@code FIRST_PORT + n - 1}. Clear of the core tests' 4306. */
    private static final int FIRST_PORT = 4406;
    private static final int NODES = 3;
    /** The driver's way to set the session variable on each connection. */
    private static final String CAUSAL_READS = "sessionVariables=wsrep_sync_wait=1";

    private final Path base;
    private final GaleraCluster cluster;
    private final List<ServerProcesses> nodes = new ArrayList<>();
    /** The node the fault under way was made to, 1 to 3; the next fault takes the next node. */
    private int faulted = NODES;

    private GaleraCampaignServer(Path base, GaleraCluster cluster) {
        this.base = base;
        this.cluster = cluster;
        for (int node = 1; node <= NODES; node++) {
            String config = "--defaults-file=" + base.resolve("node" + node).resolve("my.cnf");
            nodes.add(new ServerProcesses(base.resolve("node" + node), () -> ProcessHandle.allProcesses()
                    .filter(process -> process.info().arguments().map(List::of).orElse(List.of()).contains(config))
                    .toList()));
        }
    }

    static GaleraCampaignServer start(String name) {
        Path base = Path.of("target", "galera-" + name).toAbsolutePath();
        return new GaleraCampaignServer(base, GaleraCluster.start(base, FIRST_PORT));
    }

    @Override
    public ServerKind kind() {
        return ServerKind.GALERA;
    }

    /**
     * Node 1, with causal reads, as docs/scaling.md tells an operator to set them where reads must
     * see increments acknowledged on another node.
     */
    @Override
    public String jdbcUrl() {
        return cluster.jdbcUrl(1) + "&" + CAUSAL_READS;
    }

    @Override
    public String jdbcUrlVia(FaultProxy proxy) {
        return MariaDbTestDatabase.at(jdbcUrl()).jdbcUrlVia("127.0.0.1", proxy.port());
    }

    @Override
    public int port() {
        return FIRST_PORT;
    }

    @Override
    public List<Integer> ports() {
        return IntStream.rangeClosed(1, NODES).mapToObj(cluster::port).toList();
    }

    @Override
    public List<ProcessHandle> processes() {
        return nodes.stream().flatMap(node -> node.list().stream()).toList();
    }

    /** Pauses the next node in turn. */
    @Override
    public void pause() {
        faulted = faulted % NODES + 1;
        nodes.get(faulted - 1).pause();
    }

    /** Continues the node {@link #pause()} stopped. */
    @Override
    public void resume() {
        nodes.get(faulted - 1).resume();
    }

    /** Kills the next node in turn; returns once the others have dropped it. */
    @Override
    public void kill() {
        faulted = faulted % NODES + 1;
        cluster.kill(faulted);
    }

    /** Starts the node {@link #kill()} killed, and waits until it has rejoined and is synced. */
    @Override
    public void restart() {
        cluster.restart(faulted);
    }

    @Override
    public void stop() {
        nodes.forEach(ServerProcesses::resume);
        cluster.close();
    }

    @Override
    public String toString() {
        return "a 3-node Galera cluster on ports " + ports() + " in " + base;
    }
}
