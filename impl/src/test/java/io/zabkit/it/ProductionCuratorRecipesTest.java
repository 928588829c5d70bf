package io.zabkit.it;

/** Curator's recipes against zabkit's production server (ServerMain in its own JVM). */
class ProductionCuratorRecipesTest extends CuratorRecipesContract {
    @Override
    Target.Factory factory() {
        return ProductionTarget.FACTORY;
    }
}
