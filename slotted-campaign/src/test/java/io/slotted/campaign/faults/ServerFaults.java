package io.slotted.campaign.faults;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Makes the faults of the wire ({@link Fault}) and of the database server ({@link DatabaseFault})
 * that every campaign makes, through the library or through the service, each healed, or the
 * server serving again, before it returns: how long, how late and on which proxy all drawn from
 * the campaign's seeded generator, which its fault schedule shares. A wire fault is armed for the
 * next one to three commits, or made at once; a late delivery comes up to 5 s late (see
 * {@link #deliverLate}); an answer dropped has its connection closed after 30 s if its client has not
 * given up; a blackout lasts 0.5 to 4 s.
 */
public final class ServerFaults {
    /**
     * Every fault it makes, as a schedule draws them: the wire's, then the database server's, with
     * {@link Fault#LATE_DELIVERY} three times. A statement delivered after its retry is how a
     * flush can count twice (the double count the campaign was first built for), and it must meet
     * a one-statement flush within a few milliseconds of its retry to tell, so it comes more often.
     */
    public static final List<Enum<?>> KINDS = Stream.of(Arrays.stream(Fault.values()),
            Arrays.stream(DatabaseFault.values()), Stream.of(Fault.LATE_DELIVERY, Fault.LATE_DELIVERY))
            .flatMap(kinds -> kinds).collect(Collectors.toUnmodifiableList());

    private final Random random;
    private final CampaignServer server;
    private final List<FaultProxy> proxies;

    /**
     * @param random the fault schedule's generator
     * @param server the database server
     * @param proxies the proxy in front of each node the processes use: one for a single server; a
     *     wire fault takes one of them at random
     */
    public ServerFaults(Random random, CampaignServer server, List<FaultProxy> proxies) {
        this.random = random;
        this.server = server;
        this.proxies = List.copyOf(proxies);
    }

    /**
     * Makes one fault of {@link #KINDS}, and returns once it is over.
     *
     * @throws IllegalArgumentException if it is not one of them
     */
    public void make(Enum<?> fault) {
        if (fault instanceof Fault wire) {
            make(wire);
        } else if (fault instanceof DatabaseFault database) {
            switch (database) {
                case PAUSE_DATABASE -> pauseDatabase(millisBetween(500, 8_000));
                case KILL_DATABASE -> killDatabase(millisBetween(200, 2_000));
            }
        } else {
            throw new IllegalArgumentException("not a fault of the wire or the database: " + fault);
        }
    }

    private void make(Fault fault) {
        FaultProxy proxy = proxies.get(random.nextInt(proxies.size()));
        switch (fault) {
            case RESET_BEFORE_COMMIT -> armSeveral(proxy::resetBeforeNextCommit);
            case RESET_AFTER_COMMIT -> armSeveral(proxy::resetAfterNextCommit);
            case ANSWER_DROPPED -> armSeveral(() -> proxy.dropNextAnswer(Duration.ofSeconds(30)));
            case LATE_DELIVERY -> armSeveral(() -> deliverLate(proxy));
            case HELD_PAST_TIMEOUT -> armSeveral(proxy::holdNextCommitPastTimeout);
            case CUT_MID_PACKET -> armSeveral(proxy::cutNextCommitMidPacket);
            case RESET_ALL -> proxy.resetAll();
            case BLACKOUT -> proxy.blackout(Duration.ofMillis(millisBetween(500, 4_000)));
        }
    }

    /** Heals every proxy: nothing armed or held is left to fire. */
    public void heal() {
        proxies.forEach(FaultProxy::heal);
    }

    /**
     * When a held commit is delivered, in thirds: just before another connection's next commit
     * passes (typically its own retry's, while the retry holds the flusher's mark: a retry that did
     * not fence the flush's number lets the held statement land a second time once it commits); 1
     * to 500 ms later, around and just after the retry; or 0.5 to 5 s later, once the process has
     * gone on to other flushes.
     */
    private void deliverLate(FaultProxy proxy) {
        switch (random.nextInt(3)) {
            case 0 -> proxy.deliverNextCommitWithTheNextCommit(Duration.ofSeconds(5));
            case 1 -> proxy.deliverNextCommitLate(Duration.ofMillis(millisBetween(1, 500)));
            default -> proxy.deliverNextCommitLate(Duration.ofMillis(millisBetween(500, 5_000)));
        }
    }

    /** Arms a fault for the next one to three commits, then gives them time to come. */
    private void armSeveral(Runnable arm) {
        int times = 1 + random.nextInt(3);
        for (int i = 0; i < times; i++) {
            arm.run();
        }
        pause(millisBetween(200, 1_500));
    }

    private void pauseDatabase(long millis) {
        server.pause();
        try {
            pause(millis);
        } finally {
            server.resume();
        }
    }

    private void killDatabase(long downMillis) {
        server.kill();
        pause(downMillis);
        server.restart();
    }

    /** One of {@code choices}, drawn from the generator. */
    public <T> T pick(List<T> choices) {
        return choices.get(random.nextInt(choices.size()));
    }

    /** A time drawn from the generator between {@code low} and {@code high}. */
    public long millisBetween(long low, long high) {
        return low + (long) (random.nextDouble() * (high - low));
    }

    /** Sleeps; an interrupt ends the schedule. */
    public static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("the fault schedule was interrupted", e);
        }
    }
}
