package io.slotted.server.auth;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.slotted.Ticker;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How many wrong tokens each client address may still try: a bound on guessing, per address, on
 * every front end.
 *
 * <p>Each address has an allowance of {@value #BURST} failed authentications, refilled at
 * {@value #PER_SECOND} per second. While an address has less than one left, its attempts are not
 * checked at all — a refusal that cannot tell a right token from a wrong one is the only kind that
 * slows guessing, since any answer that differs for the right token lets a guesser run as fast as
 * it can send. A loop of wrong tokens is thus held to about one guess per second per address,
 * while every other address is served as before. Clients behind one address (a NAT, a load
 * balancer) share its allowance: a guesser among them delays the others' new authentications too,
 * which is the price of a bound that holds.
 *
 * <p>Bounded memory whoever knocks: at most {@value #MAX_ADDRESSES} addresses are remembered, each
 * forgotten a minute after its last failure (by then its allowance is full again). IPv6 clients
 * are counted per /64 network, since one host may hold a whole /64 of addresses.
 */
public final class FailedAuthentications {
    /** Failures an address may make in a row before it is held back. */
    public static final int BURST = 20;
    /** Failures an address earns back each second. */
    public static final int PER_SECOND = 1;
    /** Addresses remembered at once. */
    public static final int MAX_ADDRESSES = 100_000;

    private static final Logger log = LoggerFactory.getLogger(FailedAuthentications.class);
    private static final long NANOS_PER_FAILURE = TimeUnit.SECONDS.toNanos(1) / PER_SECOND;

    private final Ticker ticker;
    private final Cache<InetAddress, Allowance> addresses;

    /**
     * Starts with every address allowed its full burst.
     *
     * @param ticker the clock allowances refill by
     */
    public FailedAuthentications(Ticker ticker) {
        this.ticker = ticker;
        this.addresses = Caffeine.newBuilder()
                .maximumSize(MAX_ADDRESSES)
                .expireAfterAccess(Duration.ofMinutes(1))
                .ticker(ticker::read)
                .build();
    }

    /**
     * Whether an authentication from this address may be checked now.
     *
     * @param from the client's address
     * @return true unless the address has used up its failures
     */
    public boolean allows(InetAddress from) {
        Allowance allowance = addresses.getIfPresent(key(from));
        return allowance == null || allowance.waitNanos(ticker.read()) == 0;
    }

    /**
     * How long the address must wait before its next attempt is checked.
     *
     * @param from the client's address
     * @return whole seconds, at least 1
     */
    public long secondsToWait(InetAddress from) {
        Allowance allowance = addresses.getIfPresent(key(from));
        long nanos = allowance == null ? 0 : allowance.waitNanos(ticker.read());
        return Math.max(1, TimeUnit.NANOSECONDS.toSeconds(nanos + TimeUnit.SECONDS.toNanos(1) - 1));
    }

    /**
     * Counts a wrong token from this address.
     *
     * @param from the client's address
     */
    public void failed(InetAddress from) {
        Allowance allowance = addresses.get(key(from), address -> new Allowance(ticker.read()));
        if (allowance.spend(ticker.read())) {
            log.warn("{} failed authentications in a row from {}: its tokens are checked no more"
                    + " than {} per second from now on", BURST, from.getHostAddress(), PER_SECOND);
        }
    }

    /** An IPv6 address stands for its /64 network; an IPv4 address for itself. */
    private static InetAddress key(InetAddress from) {
        if (!(from instanceof Inet6Address)) {
            return from;
        }
        byte[] network = Arrays.copyOf(from.getAddress(), 16);
        Arrays.fill(network, 8, 16, (byte) 0);
        try {
            return InetAddress.getByAddress(network);
        } catch (UnknownHostException e) {
            throw new IllegalStateException("16 bytes are always an IPv6 address", e);
        }
    }

    /**
     * One address's failures, as the time its allowance will be full again: each failure pushes
     * it one refill period later, and the address is held back while it lies more than a burst's
     * worth of periods ahead. One number, so no refill loop and nothing to drift.
     */
    private static final class Allowance {
        private long fullAt;
        private boolean heldBack;

        Allowance(long now) {
            this.fullAt = now;
        }

        synchronized long waitNanos(long now) {
            long ahead = fullAt - now;
            return Math.max(0, ahead - (BURST - 1) * NANOS_PER_FAILURE);
        }

        /** Spends one failure; true when this one uses up the burst. */
        synchronized boolean spend(long now) {
            fullAt = Math.max(fullAt, now) + NANOS_PER_FAILURE;
            boolean exhausted = waitNanos(now) > 0;
            boolean first = exhausted && !heldBack;
            heldBack = exhausted;
            return first;
        }
    }
}
