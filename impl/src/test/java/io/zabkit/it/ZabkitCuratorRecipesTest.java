package io.zabkit.it;

/** Curator's recipes against zabkit's server. */
class ZabkitCuratorRecipesTest extends CuratorRecipesContract {
    @Override
    Target.Factory factory() {
        return ZabkitTarget.FACTORY;
    }
}
