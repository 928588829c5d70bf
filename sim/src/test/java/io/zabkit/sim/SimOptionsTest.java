package io.zabkit.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.zabkit.zab.Bug;
import io.zabkit.zab.Variant;
import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SimOptionsTest {
    /** A value of the component's type that no builder default and no seed draw gives, different per index. */
    private static Object unusual(Class<?> type, int index) {
        if (type == long.class) {
            return 1_000_000L + index;
        } else if (type == int.class) {
            return 1_000 + index;
        } else if (type == double.class) {
            return 0.5 + index / 1000.0;
        } else if (type == boolean.class) {
            return index % 2 == 0; // both values appear, and each boolean gets its own test below
        } else if (type == SimDisk.Mode.class) {
            return SimDisk.Mode.values()[SimDisk.Mode.values().length - 1];
        } else if (type == Variant.class) {
            return Variant.values()[Variant.values().length - 1];
        } else if (type == Set.class) {
            return Set.of(Bug.values()[0]);
        } else if (type == SimElectionChannel.Options.class) {
            return new SimElectionChannel.Options(0.25 + index, 7 + index, 0.125, 11 + index, 0.0625, 13 + index, true);
        }
        throw new AssertionError("no unusual value for " + type);
    }

    private static SimOptions withEveryComponent(boolean flip) throws Exception {
        RecordComponent[] components = SimOptions.class.getRecordComponents();
        Object[] values = new Object[components.length];
        for (int i = 0; i < components.length; i++) {
            values[i] = unusual(components[i].getType(), i);
            if (flip && values[i] instanceof Boolean b) {
                values[i] = !b;
            }
        }
        Constructor<SimOptions> canonical = SimOptions.class.getDeclaredConstructor(
                Arrays.stream(components).map(RecordComponent::getType).toArray(Class<?>[]::new));
        return canonical.newInstance(values);
    }

    @Test
    void theBuilderCarriesEveryOption() throws Exception {
        for (boolean flip : new boolean[] {false, true}) {
            SimOptions o = withEveryComponent(flip);
            assertEquals(o, o.toBuilder().build(), "a component toBuilder does not copy");
        }
    }

    @Test
    void eachChangeTouchesOnlyItsOptions() {
        SimOptions o = SimOptions.fromSeed(42, 600, SimDisk.Mode.HONEST, 3, Variant.Zab);
        assertEquals(o, o.withSlowDisk(o.slowDisk()));
        SimOptions slow = o.withSlowDisk(!o.slowDisk());
        assertNotEquals(o, slow);
        assertEquals(o, slow.withSlowDisk(o.slowDisk()), "only slowDisk changed");
        SimOptions power = o.withPowerLoss(0.25);
        assertEquals(0.25, power.powerLossProbability());
        assertEquals(o, power.withPowerLoss(o.powerLossProbability()), "only powerLossProbability changed");
        assertEquals(Set.of(Bug.values()[0]), o.withBugs(Set.of(Bug.values()[0])).bugs());
    }
}
