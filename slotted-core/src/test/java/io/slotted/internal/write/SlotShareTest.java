package io.slotted.internal.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.slotted.TestConfigs;
import io.slotted.internal.dialect.ClusterNode;
import io.slotted.internal.jdbc.Database;
import io.slotted.internal.registry.TypeRegistry;
import io.slotted.internal.sql.TableName;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Which slots each flusher writes: the flushers of a process, and of every node of a cluster,
 * own slots no other writes, and together every slot. Slot counts come from the configuration,
 * as they do before the registry was ever read.
 */
class SlotShareTest {
    /** Draws from 0 up: more than any share here owns slots, so every slot a draw can name is named. */
    private static final int DRAWS = 1_000;

    private static SlotPicker pickerWith(int recordType, int slots) {
        TypeRegistry registry = new TypeRegistry(new Database(TestConfigs.nowhere(), TableName.parse("counters")),
                TestConfigs.of(b -> b.slots(recordType, slots)));
        return new SlotPicker(registry);
    }

    private static Set<Integer> picked(SlotShare share, SlotPicker picker, int recordType) {
        Set<Integer> slots = new TreeSet<>();
        for (int draw = 0; draw < DRAWS; draw++) {
            slots.add(share.pick(picker, recordType, draw));
        }
        return slots;
    }

    @Test
    void of_outsideACluster_isTheFlushersIndexAmongTheProcesssFlushers() {
        assertThat(SlotShare.of(1, 4, Optional.empty())).isEqualTo(new SlotShare(1, 4));
    }

    @Test
    void of_onAClusterNode_isOneOfTheNodesOwnShares() {
        assertThat(SlotShare.of(1, 2, Optional.of(new ClusterNode(2, 3)))).isEqualTo(new SlotShare(5, 6));
    }

    @Test
    void of_everyFlusherOfEveryNode_ownsAShareOfItsOwn_andTogetherAllOfThem() {
        int nodes = 3;
        int flushers = 4;
        Set<Integer> shares = new HashSet<>();
        for (int node = 0; node < nodes; node++) {
            for (int flusher = 0; flusher < flushers; flusher++) {
                SlotShare share = SlotShare.of(flusher, flushers, Optional.of(new ClusterNode(node, nodes)));
                assertThat(share.shares()).isEqualTo(nodes * flushers);
                assertThat(shares.add(share.share())).as("share of flusher %d on node %d", flusher, node).isTrue();
            }
        }
        assertThat(shares).containsExactlyInAnyOrderElementsOf(IntStream.range(0, nodes * flushers).boxed().toList());
    }

    @Test
    void constructor_refusesAShareOutsideItsShares() {
        assertThatThrownBy(() -> new SlotShare(4, 4)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("slot share 4 is not within 4 shares");
        assertThatThrownBy(() -> new SlotShare(0, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void pick_withSlotsNotAMultipleOfTheShares_givesEachShareExactlyItsOwnSlots() {
        SlotPicker picker = pickerWith(7, 10);

        assertThat(picked(new SlotShare(0, 4), picker, 7)).containsExactly(0, 4, 8);
        assertThat(picked(new SlotShare(1, 4), picker, 7)).containsExactly(1, 5, 9);
        assertThat(picked(new SlotShare(2, 4), picker, 7)).containsExactly(2, 6);
        assertThat(picked(new SlotShare(3, 4), picker, 7)).containsExactly(3, 7);
    }

    @Test
    void pick_withAsManySlotsAsShares_givesEachShareOneSlot() {
        SlotPicker picker = pickerWith(7, 4);

        for (int share = 0; share < 4; share++) {
            assertThat(picked(new SlotShare(share, 4), picker, 7)).containsExactly(share);
        }
    }

    @Test
    void pick_withFewerSlotsThanShares_letsSharesMeetOnOneSlotEach() {
        SlotPicker picker = pickerWith(7, 3);

        assertThat(picked(new SlotShare(5, 8), picker, 7)).containsExactly(2);
        assertThat(picked(new SlotShare(7, 8), picker, 7)).containsExactly(1);
    }

    @Test
    void pick_ofOneSlot_isAlwaysSlotZero() {
        SlotPicker picker = pickerWith(7, 1);

        assertThat(picked(new SlotShare(3, 6), picker, 7)).containsExactly(0);
    }
}
