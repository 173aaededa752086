"""A module read together with its extensions, as VASSAL loads them.

VASSAL adds an extension's components to the module it names (``module=``
on the ``ModuleExtension`` root, unless ``anyModule="true"``): its maps
are further maps, its prototypes and piece slots further definitions.  An
extension is given explicitly (``--extension FILE``): VASSAL finds the
extensions to load in a folder of the player's own choosing, so nothing on
disk says which ones a save was made with.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from types import MappingProxyType

from .errors import VassalFormatError
from .module import Module


def with_extensions(module: Module, extensions: Iterable[Module]) -> Module:
    """``module`` with each extension's maps, prototypes and piece slots added after its own.

    A map an extension defines under a name the module already uses keeps
    the module's (a save names maps by name, and the module loads first).
    """
    if module.extends is not None:
        raise VassalFormatError(module.source, f"is an extension (for the module '{module.extends}'), not a module; "
                                               "give the module it extends, and this file with --extension")
    maps = dict(module.maps)
    prototypes, slots, sources = list(module.prototypes), list(module.piece_slots), list(module.extensions)
    properties = list(module.global_properties)
    for extension in extensions:
        if extension.extends is None:
            raise VassalFormatError(extension.source, "is a module, not an extension; give one module with --module "
                                                      "and its extensions with --extension")
        if extension.extends and module.name and extension.extends != module.name:
            raise VassalFormatError(extension.source, f"is an extension for the module '{extension.extends}', not for "
                                                      f"'{module.name}' (the module given)")
        for name, definition in extension.maps.items():
            maps.setdefault(name, definition)
        prototypes.extend(extension.prototypes)
        slots.extend(extension.piece_slots)
        properties.extend(name for name in extension.global_properties if name not in properties)
        sources.append(extension.source)
    return replace(module, maps=MappingProxyType(maps), prototypes=tuple(prototypes), piece_slots=tuple(slots),
                   extensions=tuple(sources), global_properties=tuple(properties))


__all__ = ["with_extensions"]
