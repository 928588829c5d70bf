package io.zabkit.bench.papers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChartsTest {
    private static Charts.Lines twoSystems() {
        Charts.Lines l = new Charts.Lines();
        for (int x = 1; x <= 20; x++) {
            l.add("zabkit 3 servers", x, 10 * x);
            l.add("zookeeper 3 servers", x, 5 * x + 40);
        }
        return l;
    }

    @Test
    void lineChartsAndTimelinesAreWrittenAsPngAndSvg(@TempDir Path dir) throws Exception {
        Charts.write(dir, "lines", "t", "s", "x", "y", twoSystems(), true);
        Charts.timeline(dir, "timeline", "t", "s", "x", "y", twoSystems(), List.of(new Charts.Marker(7, "kill")));
        for (String name : List.of("lines", "timeline")) {
            BufferedImage png = ImageIO.read(dir.resolve(name + ".png").toFile());
            assertEquals(760, png.getWidth());
            assertEquals(500, png.getHeight());
            assertTrue(Files.readString(dir.resolve(name + ".svg")).contains("<svg"), name + ".svg");
        }
        // the two systems are drawn apart: zabkit's first colour is red, ZooKeeper's blue (the palettes)
        String svg = Files.readString(dir.resolve("timeline.svg"));
        assertTrue(svg.contains("rgb(214,39,40)") && svg.contains("rgb(31,119,180)"), "both palettes in the figure");
        assertNotEquals(Files.size(dir.resolve("lines.png")), 0L);
    }

    @Test
    void aChartWithoutPointsIsRefusedByName(@TempDir Path dir) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Charts.timeline(dir, "empty", "t", "s", "x", "y", new Charts.Lines(), List.of()));
        assertEquals("chart empty has no points", e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> Charts.write(dir, "empty", "t", "s", "x", "y", new Charts.Lines(), false));
    }
}
